/**
 * The recall benchmark's corpus (bench/recall/corpus/README.md gives the
 * formats): memories a coding agent keeps, each of one project or of the
 * user (`global`), and prompts as a user types them, each naming the
 * memories that answer it (none: recall should inject nothing). Read from
 * JSONL and checked whole before anything is loaded, so a typo in an id
 * fails the run instead of silently scoring a miss.
 *
 * Where a memory lives on the server follows the plugin's project
 * convention (docs/projects.md): a project's memory under its peer's folder
 * `viking://user/<user>/peers/<peer>/memories/<category>/<id>.md`, the
 * user's own under `viking://user/<user>/memories/<category>/<id>.md`; a
 * project's workspace is a clone whose `origin` is
 * `git@github.com:bench/<project>.git`, so its peer is
 * `github.com-bench-<project>`.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Memory {
  id: string;
  /** A project's name, or `global` (the user's own). */
  scope: string;
  /** OpenViking's memory category: `preferences`, `entities`, `events`, `cases`, … */
  category: string;
  /** What kind of thing a coding agent keeps: preference, project fact, command, decision, person, gotcha. */
  kind: string;
  title: string;
  text: string;
}

export type PromptType = 'paraphrase' | 'no-answer' | 'other-project-trap' | 'follow-up' | 'multi' | 'keyword';

export interface Prompt {
  id: string;
  project: string;
  prompt: string;
  /** The turns before the prompt, oldest first (written to the session's transcript). */
  recent?: Array<{ role: 'user' | 'assistant'; text: string }>;
  /** Ids of the memories that answer it; [] when none does. */
  answers: string[];
  type: PromptType;
  split: 'tune' | 'held-out';
}

export interface Corpus {
  dir: string;
  memories: Memory[];
  prompts: Prompt[];
  projects: string[];
}

export const GLOBAL_SCOPE = 'global';
const TYPES = new Set(['paraphrase', 'no-answer', 'other-project-trap', 'follow-up', 'multi', 'keyword']);
const SAFE_SEGMENT = /^[a-z0-9][a-z0-9_.-]*$/;

export function originOf(project: string): string {
  return `git@github.com:bench/${project}.git`;
}

export function peerOfProject(project: string): string {
  return `github.com-bench-${project}`.toLowerCase();
}

export function uriOf(memory: Memory, user: string): string {
  const base =
    memory.scope === GLOBAL_SCOPE
      ? `viking://user/${user}/memories`
      : `viking://user/${user}/peers/${peerOfProject(memory.scope)}/memories`;
  return `${base}/${memory.category}/${memory.id}.md`;
}

/** The file's text as the server stores it: the title as a heading, then the memory. */
export function contentOf(memory: Memory): string {
  return `# ${memory.title}\n\n${memory.text}\n`;
}

function jsonLines<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line, index) => ({ line: line.trim(), index }))
    .filter(({ line }) => line !== '')
    .map(({ line, index }) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${file}:${index + 1}: not JSON (${String(error)})`, { cause: error });
      }
    });
}

/** The corpus of `dir` (memories.jsonl, prompts.jsonl), checked. */
export function loadCorpus(dir: string): Corpus {
  const memories = jsonLines<Memory>(join(dir, 'memories.jsonl'));
  const prompts = jsonLines<Prompt>(join(dir, 'prompts.jsonl'));
  const problems: string[] = [];
  const ids = new Map<string, Memory>();
  for (const memory of memories) {
    if (ids.has(memory.id)) problems.push(`memory ${memory.id} twice`);
    ids.set(memory.id, memory);
    for (const field of ['id', 'scope', 'category', 'text'] as const)
      if (typeof memory[field] !== 'string' || memory[field] === '') problems.push(`memory ${memory.id}: no ${field}`);
    for (const segment of [memory.id, memory.scope, memory.category])
      if (!SAFE_SEGMENT.test(String(segment)))
        problems.push(`memory ${memory.id}: "${segment}" cannot be a URI segment`);
  }
  const projects = [...new Set(memories.map((memory) => memory.scope).filter((scope) => scope !== GLOBAL_SCOPE))];
  const promptIds = new Set<string>();
  for (const prompt of prompts) {
    if (promptIds.has(prompt.id)) problems.push(`prompt ${prompt.id} twice`);
    promptIds.add(prompt.id);
    if (!projects.includes(prompt.project)) problems.push(`prompt ${prompt.id}: unknown project ${prompt.project}`);
    if (!TYPES.has(prompt.type)) problems.push(`prompt ${prompt.id}: unknown type ${prompt.type}`);
    if (prompt.split !== 'tune' && prompt.split !== 'held-out')
      problems.push(`prompt ${prompt.id}: split ${prompt.split}`);
    if (!Array.isArray(prompt.answers)) problems.push(`prompt ${prompt.id}: answers is not a list`);
    for (const answer of prompt.answers ?? []) {
      const memory = ids.get(answer);
      if (memory === undefined) problems.push(`prompt ${prompt.id}: unknown answer ${answer}`);
      else if (memory.scope !== GLOBAL_SCOPE && memory.scope !== prompt.project)
        problems.push(`prompt ${prompt.id}: answer ${answer} belongs to ${memory.scope}, not ${prompt.project}`);
    }
  }
  if (problems.length > 0) throw new Error(`corpus ${dir}:\n  ${problems.join('\n  ')}`);
  return { dir, memories, prompts, projects };
}

/** The corpus the benchmark runs by default: the committed one, else the small development set. */
export function defaultCorpusDir(root: string): string {
  const main = join(root, 'bench/recall/corpus');
  return existsSync(join(main, 'prompts.jsonl')) ? main : join(root, 'bench/recall/dev-corpus');
}
