/**
 * The recall benchmark's corpus (bench/recall/corpus, issue 38) keeps the
 * rules its numbers rest on: every line parses, ids are unique, every answer
 * exists and is the prompt's own project's or the user's, each type keeps its
 * share and each split holds each type (tuning on `tune` must leave every
 * kind of prompt to `held-out`), paraphrases do not copy their memory's words
 * (a recall that matches words would otherwise look better than it is), and
 * the counts README.md states are the corpus's. The URIs memories are written
 * at keep to the plugin's project convention: the plugin's own project scope
 * (src/recall/projectScope.ts) keeps a project's and the user's memories and
 * drops every other project's, so a trap's leak is a leak the plugin can see.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CATEGORIES,
  CORPUS_DIR,
  KINDS,
  PROMPT_TYPES,
  SPLITS,
  contentWords,
  countTables,
  lexicalOverlap,
  loadCorpus,
  memoryUri,
  type Memory,
  type Prompt,
} from '../../bench/recall/corpus/corpus.js';
import { projectScope } from '../../src/recall/projectScope.js';

const corpus = loadCorpus();
const { memories, prompts, projects, user } = corpus;
const byId = new Map(memories.map((memory) => [memory.id, memory]));
const projectNames = projects.map((project) => project.name);

/** The and the brief's minimums. */
const MIN = { memories: 170, projects: 3, memoriesPerProject: 30, prompts: 130 };
const MIN_SHARE: Partial<Record<Prompt['type'], number>> = {
  paraphrase: 0.6,
  'no-answer': 0.15,
  'other-project-trap': 0.1,
  'follow-up': 0.1,
};
/** A paraphrase copies its memory when this share of its content words is in the memory's text. */
const COPY_OVERLAP = 0.6;
/** ... and at most this share of paraphrases may (terse prompts like "which node are we on" name their subject). */
const MAX_COPIES = 0.1;

function duplicates(values: readonly string[]): string[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function share(type: Prompt['type']): number {
  return prompts.filter((prompt) => prompt.type === type).length / prompts.length;
}

describe('the recall corpus: memories', () => {
  it('has unique ids named by scope, known scopes, categories and kinds, and texts of 100 to 600 characters', () => {
    expect(duplicates(memories.map((memory) => memory.id))).toEqual([]);
    const wrong = memories.filter((memory: Memory) => {
      const categories: readonly string[] = memory.scope === 'global' ? CATEGORIES.global : CATEGORIES.project;
      return (
        !new RegExp(`^m-${memory.scope}-\\d{3}$`).test(memory.id) ||
        !(memory.scope === 'global' || projectNames.includes(memory.scope)) ||
        !categories.includes(memory.category) ||
        !(KINDS as readonly string[]).includes(memory.kind) ||
        typeof memory.title !== 'string' ||
        memory.title.trim() === '' ||
        typeof memory.text !== 'string' ||
        memory.text.length < 100 ||
        memory.text.length > 600
      );
    });
    expect(wrong.map((memory) => memory.id)).toEqual([]);
  });

  it('meets the minimums: 170 memories, 3 projects of 30 or more, user-wide ones, every kind in every project', () => {
    expect(memories.length).toBeGreaterThanOrEqual(MIN.memories);
    expect(projects.length).toBeGreaterThanOrEqual(MIN.projects);
    for (const scope of projectNames) {
      const mine = memories.filter((memory) => memory.scope === scope);
      expect(mine.length, scope).toBeGreaterThanOrEqual(MIN.memoriesPerProject);
      expect(new Set(mine.map((memory) => memory.kind)).size, scope).toBe(KINDS.length);
    }
    expect(memories.filter((memory) => memory.scope === 'global').length).toBeGreaterThanOrEqual(20);
  });

  it('holds no near-duplicates: two memories share under half their content words', () => {
    const words = memories.map((memory) => [memory.id, contentWords(memory.text)] as const);
    const close: string[] = [];
    for (const [i, [idA, a]] of words.entries()) {
      for (const [idB, b] of words.slice(i + 1)) {
        const shared = [...a].filter((word) => b.has(word)).length;
        if (shared / (a.size + b.size - shared) >= 0.5) close.push(`${idA} ~ ${idB}`);
      }
    }
    expect(close).toEqual([]);
  });

  it("lives at unique URIs that the plugin's project scope keeps for its own project and drops for every other", () => {
    const uris = memories.map((memory) => memoryUri(memory, user, projects));
    expect(duplicates(uris)).toEqual([]);
    expect(duplicates(projects.map((project) => project.peer))).toEqual([]);
    for (const project of projects) {
      const keeps = projectScope(project.peer);
      const kept = memories.filter((memory) => keeps(memoryUri(memory, user, projects)));
      expect(
        kept.every((memory) => memory.scope === project.name || memory.scope === 'global'),
        project.name,
      ).toBe(true);
      expect(kept.length, project.name).toBe(
        memories.filter((memory) => memory.scope === project.name || memory.scope === 'global').length,
      );
    }
  });
});

describe('the recall corpus: prompts', () => {
  it('have unique ids, a known project, type and split, and answers that exist, once each', () => {
    expect(duplicates(prompts.map((prompt) => prompt.id))).toEqual([]);
    const wrong = prompts.filter(
      (prompt) =>
        !/^p-\d{3}$/.test(prompt.id) ||
        !projectNames.includes(prompt.project) ||
        !(PROMPT_TYPES as readonly string[]).includes(prompt.type) ||
        !(SPLITS as readonly string[]).includes(prompt.split) ||
        typeof prompt.prompt !== 'string' ||
        prompt.prompt.trim() === '' ||
        !Array.isArray(prompt.answers) ||
        duplicates(prompt.answers).length > 0,
    );
    expect(wrong.map((prompt) => prompt.id)).toEqual([]);
    const missing = prompts.flatMap((prompt) =>
      prompt.answers.filter((id) => !byId.has(id)).map((id) => `${prompt.id}: ${id}`),
    );
    expect(missing).toEqual([]);
    expect(
      duplicates(prompts.map((prompt) => `${prompt.project}\n${prompt.prompt}\n${JSON.stringify(prompt.recent)}`)),
    ).toEqual([]);
  });

  it("answer only with the prompt's own project's memories or the user's own", () => {
    const leaks = prompts.flatMap((prompt) =>
      prompt.answers
        .filter((id) => !['global', prompt.project].includes(byId.get(id)?.scope ?? ''))
        .map((id) => `${prompt.id} (${prompt.project}): ${id}`),
    );
    expect(leaks).toEqual([]);
  });

  it('keep each type to its shape: no-answer answers nothing, multi needs two, follow-ups carry the recent turns', () => {
    const wrong = prompts.filter((prompt) => {
      const recentOk =
        prompt.recent === undefined ||
        (Array.isArray(prompt.recent) &&
          prompt.recent.length > 0 &&
          prompt.recent.every((turn) => ['user', 'assistant'].includes(turn.role) && turn.text.trim() !== ''));
      if (!recentOk) return true;
      switch (prompt.type) {
        case 'no-answer':
          return prompt.answers.length > 0;
        case 'multi':
          return prompt.answers.length < 2;
        case 'follow-up':
          return prompt.recent === undefined;
        case 'paraphrase':
        case 'keyword':
          return prompt.answers.length === 0;
        default:
          return false;
      }
    });
    expect(wrong.map((prompt) => prompt.id)).toEqual([]);
  });

  it('meet the minimums: 130 prompts, each type its share, traps with and without a right answer', () => {
    expect(prompts.length).toBeGreaterThanOrEqual(MIN.prompts);
    for (const [type, min] of Object.entries(MIN_SHARE)) {
      expect(share(type as Prompt['type']), type).toBeGreaterThanOrEqual(min);
    }
    expect(prompts.filter((prompt) => prompt.type === 'multi').length).toBeGreaterThanOrEqual(4);
    const traps = prompts.filter((prompt) => prompt.type === 'other-project-trap');
    expect(traps.filter((prompt) => prompt.answers.length === 0).length).toBeGreaterThanOrEqual(5);
    expect(traps.filter((prompt) => prompt.answers.length > 0).length).toBeGreaterThanOrEqual(5);
    for (const project of projectNames) {
      expect(
        new Set(prompts.filter((prompt) => prompt.project === project).map((prompt) => prompt.type)).size,
        project,
      ).toBe(PROMPT_TYPES.length);
    }
  });

  it('split about 40% tune and 60% held-out, each split holding every type and every project', () => {
    const tune = prompts.filter((prompt) => prompt.split === 'tune');
    expect(tune.length / prompts.length).toBeGreaterThan(0.35);
    expect(tune.length / prompts.length).toBeLessThan(0.45);
    for (const split of SPLITS) {
      const mine = prompts.filter((prompt) => prompt.split === split);
      expect(new Set(mine.map((prompt) => prompt.type)).size, split).toBe(PROMPT_TYPES.length);
      expect(new Set(mine.map((prompt) => prompt.project)).size, split).toBe(projectNames.length);
    }
  });

  it('word paraphrases apart from their memory: under 60% of content words shared, for 90% of them', () => {
    const paraphrases = prompts.filter((prompt) => prompt.type === 'paraphrase');
    const overlaps = paraphrases.map((prompt) => ({ prompt, overlap: lexicalOverlap(prompt, byId) }));
    const buckets = [0, 0.2, 0.4, 0.6, 0.8].map((low) => {
      const count = overlaps.filter(
        ({ overlap }) => overlap >= low && (overlap < low + 0.2 || (low === 0.8 && overlap <= 1)),
      ).length;
      return `${low.toFixed(1)}-${(low + 0.2).toFixed(1)}: ${count}`;
    });
    const copies = overlaps.filter(({ overlap }) => overlap >= COPY_OVERLAP);
    console.log(
      `paraphrase overlap with their answers (${paraphrases.length}): ${buckets.join(', ')}; at ${COPY_OVERLAP} or more:`,
      copies.map(({ prompt, overlap }) => `${prompt.id} ${overlap.toFixed(2)} "${prompt.prompt}"`),
    );
    expect(copies.length / paraphrases.length).toBeLessThanOrEqual(MAX_COPIES);
  });

  it("README.md states the corpus's counts as countTables prints them", () => {
    const readme = readFileSync(join(CORPUS_DIR, 'README.md'), 'utf8');
    const block = /<!-- counts:start -->\n([\s\S]*?)\n<!-- counts:end -->/.exec(readme)?.[1];
    expect(block).toBe(countTables(corpus));
  });
});
