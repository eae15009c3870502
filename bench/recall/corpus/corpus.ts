/**
 * The recall benchmark's corpus (issue 38): its files' shapes, one loader,
 * the rules a valid corpus keeps, and where each memory lives on the server.
 * The runner and the corpus test both read the corpus through this module,
 * so the URI a memory is written at and the URI a prompt's answer is scored
 * against can never disagree, and a corpus edit that breaks a rule (an
 * answer id that does not exist, another project's memory as an answer, a
 * type falling under its share) fails `npm test` instead of skewing numbers.
 *
 * The layout follows the plugin's project convention (docs/projects.md, D24):
 * a project's memories under its peer folder, the user's own under
 * `memories/`, in OpenViking 0.5.2's category folders as its extraction
 * templates name them (`preferences/<user>/…`, `entities/<entity category>/…`,
 * `events/<yyyy>/<mm>/<dd>/…`, `experiences/…`), the file named by the
 * memory's id so an injected URI maps back to its id.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = dirname(fileURLToPath(import.meta.url));

export const KINDS = ['preference', 'fact', 'command', 'decision', 'person', 'gotcha'] as const;
export const PROMPT_TYPES = ['paraphrase', 'no-answer', 'other-project-trap', 'follow-up', 'multi', 'keyword'] as const;
export const SPLITS = ['tune', 'held-out'] as const;
/** OpenViking 0.5.2's memory categories a benchmark memory may take, by scope (cases, profile and the agent's trajectories are never peer memories or recall answers). */
export const CATEGORIES = {
  project: ['preferences', 'entities', 'events'],
  global: ['preferences', 'entities', 'events', 'experiences'],
} as const;

export type Kind = (typeof KINDS)[number];
export type PromptType = (typeof PROMPT_TYPES)[number];
export type Split = (typeof SPLITS)[number];

export type Memory = {
  id: string;
  scope: string;
  category: string;
  kind: Kind;
  title: string;
  text: string;
};
export type Turn = { role: 'user' | 'assistant'; text: string };
export type Prompt = {
  id: string;
  project: string;
  prompt: string;
  recent?: Turn[];
  answers: string[];
  type: PromptType;
  split: Split;
};
export type Project = { name: string; description: string; origin: string; peer: string };
export type Corpus = { user: string; projects: Project[]; memories: Memory[]; prompts: Prompt[] };

/** Each line of a JSONL file parsed; a line that does not parse throws with its file and number. */
export function readJsonl(file: string): unknown[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch (error) {
      throw new Error(`${file}:${index + 1}: ${(error as Error).message}`, { cause: error });
    }
  });
}

export function loadCorpus(dir: string = CORPUS_DIR): Corpus {
  const { user, projects } = JSON.parse(readFileSync(join(dir, 'projects.json'), 'utf8')) as {
    user: string;
    projects: Project[];
  };
  return {
    user,
    projects,
    memories: readJsonl(join(dir, 'memories.jsonl')) as Memory[],
    prompts: readJsonl(join(dir, 'prompts.jsonl')) as Prompt[],
  };
}

/**
 * The memory's URI on the server, for the user `user`: the user's own under
 * `viking://user/<user>/memories/`, a project's under its peer folder
 * `viking://user/<user>/peers/<peer>/memories/`.
 */
export function memoryUri(memory: Memory, user: string, projects: readonly Project[]): string {
  let root = `viking://user/${user}`;
  if (memory.scope !== 'global') {
    const project = projects.find((candidate) => candidate.name === memory.scope);
    if (project === undefined) throw new Error(`${memory.id}: no project named ${memory.scope}`);
    root += `/peers/${project.peer}`;
  }
  return `${root}/memories/${categoryFolder(memory, user)}/${memory.id}.md`;
}

/** The folder inside the category, as OpenViking's extraction templates lay them out. */
function categoryFolder(memory: Memory, user: string): string {
  switch (memory.category) {
    case 'preferences':
      return `preferences/${user}`;
    case 'entities':
      return `entities/${memory.kind}`;
    case 'events': {
      const date = /(\d{4})-(\d{2})-(\d{2})/.exec(memory.text);
      if (date === null) throw new Error(`${memory.id}: an event names no date`);
      return `events/${date[1]}/${date[2]}/${date[3]}`;
    }
    default:
      return memory.category;
  }
}

const STOPWORDS = new Set(
  `about above after again against also although always anything anyone because been before being below between both
  cannot could does doing done down during each else even every from further have having here hers herself himself into
  itself just more most much must myself need needs only other ought ours ourselves over same shall should some such than
  that their theirs them themselves then there these they this those through under until very want wants were what whats
  when where which while whom with would your yours yourself will thanks thank like really still something stuff right
  make made maybe please actually`.split(/\s+/),
);

/** A text's content words: lower-cased `[a-z0-9_]+` runs of at least 4 characters holding a letter, stopwords dropped. */
export function contentWords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
  return new Set(words.filter((word) => word.length >= 4 && /[a-z]/.test(word) && !STOPWORDS.has(word)));
}

/** The share of a prompt's content words found in its answers' texts (0 for a prompt with none). */
export function lexicalOverlap(prompt: Prompt, byId: ReadonlyMap<string, Memory>): number {
  const words = contentWords(prompt.prompt);
  if (words.size === 0) return 0;
  const answerWords = new Set(prompt.answers.flatMap((id) => [...contentWords(byId.get(id)?.text ?? '')]));
  return [...words].filter((word) => answerWords.has(word)).length / words.size;
}

function tally<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

/** A Markdown table padded as Prettier pads one, so README.md's copy survives `npm run format`. */
function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => row[column]?.length ?? 0)));
  const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  const [head = [], ...body] = cells;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** The corpus's counts as the Markdown tables README.md carries (the corpus test checks they match). */
export function countTables(corpus: Corpus): string {
  const scopes = [...corpus.projects.map((project) => project.name), 'global'];
  const memoryRows = scopes.map((scope) => {
    const mine = corpus.memories.filter((memory) => memory.scope === scope);
    const byKind = tally(mine, (memory) => memory.kind);
    const byCategory = tally(mine, (memory) => memory.category);
    return [
      scope,
      mine.length,
      ...KINDS.map((kind) => byKind.get(kind) ?? 0),
      [...byCategory].map(([category, count]) => `${category} ${count}`).join(', '),
    ];
  });
  memoryRows.push([
    'all',
    corpus.memories.length,
    ...KINDS.map((kind) => tally(corpus.memories, (m) => m.kind).get(kind) ?? 0),
    '',
  ]);
  const promptRows = PROMPT_TYPES.map((type) => {
    const mine = corpus.prompts.filter((prompt) => prompt.type === type);
    const byProject = tally(mine, (prompt) => prompt.project);
    const bySplit = tally(mine, (prompt) => prompt.split);
    const share = `${((100 * mine.length) / corpus.prompts.length).toFixed(1)}%`;
    return [
      type,
      mine.length,
      share,
      ...corpus.projects.map((project) => byProject.get(project.name) ?? 0),
      ...SPLITS.map((split) => bySplit.get(split) ?? 0),
    ];
  });
  const all = corpus.prompts;
  promptRows.push([
    'all',
    all.length,
    '100%',
    ...corpus.projects.map((project) => tally(all, (p) => p.project).get(project.name) ?? 0),
    ...SPLITS.map((split) => tally(all, (p) => p.split).get(split) ?? 0),
  ]);
  const empty = all.filter((prompt) => prompt.answers.length === 0).length;
  const global = all.filter((prompt) => prompt.answers.some((id) => id.startsWith('m-global-'))).length;
  return [
    table(['scope', 'memories', ...KINDS, 'categories'], memoryRows),
    '',
    table(['type', 'prompts', 'share', ...corpus.projects.map((project) => project.name), ...SPLITS], promptRows),
    '',
    `Prompts whose right answer is nothing: ${empty}. Prompts with a user-wide (global) memory among their answers: ${global}. Prompts with a recent turn: ${all.filter((prompt) => prompt.recent !== undefined).length}.`,
  ].join('\n');
}
