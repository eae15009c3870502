/**
 * The find tier's ranking (src/recall/rank.ts) on what OpenViking 0.5.2's
 * find answers (docs/host-facts.md F38): beside a memory file (level 2) it
 * returns its folder's `.overview.md` (level 1, the server's template index
 * of the folder) and `.abstract.md` (level 0), often scoring higher. The
 * leaf boost goes to the file only, so the memory ranks above its folder.
 *
 * @module
 */
import { describe, expect, it } from 'vitest';
import { rankFindItems } from '../../src/recall/rank.js';
import type { FindResult } from '../../src/openviking/types.js';

const MEMORIES = 'viking://user/u2/memories';

/** A find answer as 0.5.2 gave it for "which editor do I prefer" (scores as seen). */
const ANSWER: FindResult = {
  memories: [
    {
      uri: `${MEMORIES}/preferences/u2/.overview.md`,
      context_type: 'memory',
      level: 1,
      score: 0.6451,
      abstract: '# Preferences Overview\n**User:** u2\n**Topic:** editor.md\n\n- [editor.md](./editor.md)',
    },
    {
      uri: `${MEMORIES}/preferences/u2/editor.md`,
      context_type: 'memory',
      level: 2,
      score: 0.5828,
      abstract: 'Uses Helix as the editor, with two-space indent.',
    },
    { uri: `${MEMORIES}/.abstract.md`, context_type: 'memory', level: 0, score: 0.6, abstract: "User's memories" },
  ],
  resources: [],
  skills: [],
};

const options = { query: 'which editor do I prefer', scoreThreshold: 0.35, limit: 10, maxContentChars: 500 };

describe('the find tier ranks files above their folders', () => {
  it("a memory file ranks above its folder's overview and the memories' abstract", () => {
    expect(rankFindItems([ANSWER], options).map((item) => item.uri)[0]).toBe(`${MEMORIES}/preferences/u2/editor.md`);
  });

  it('without a level, a .md URI is a file unless it is a folder summary', () => {
    const withoutLevels: FindResult = {
      ...ANSWER,
      memories: ANSWER.memories.map(({ level: _level, ...item }) => item),
    };
    expect(rankFindItems([withoutLevels], options).map((item) => item.uri)[0]).toBe(
      `${MEMORIES}/preferences/u2/editor.md`,
    );
  });
});
