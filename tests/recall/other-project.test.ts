/**
 * A prompt whose best match is another project's memory gets nothing of
 * this project's (D43, src/recall/otherProject.ts): the server reports
 * another project's raw score under `peer_scope: all`; when it beats all of
 * the project's (and the user's own) by more than the margin, the recall
 * is empty. Another project's memory never reaches the block either way.
 */
import { describe, expect, it } from 'vitest';
import { recallMemories } from '../../src/recall/cascade.js';
import { aboutAnotherProject, OTHER_PROJECT_MARGIN } from '../../src/recall/otherProject.js';
import { projectScope } from '../../src/recall/projectScope.js';
import type { ContextEntry, OpenVikingClient } from '../../src/openviking/types.js';

const OURS = 'viking://user/dana/peers/github.com-acme-ledger/memories/entities/command/ours.md';
const USERS = 'viking://user/dana/memories/preferences/dana/style.md';
const THEIRS = 'viking://user/dana/peers/github.com-acme-tidepool/memories/entities/person/theirs.md';
const THEIR_FOLDER = 'viking://user/dana/peers/github.com-acme-tidepool/memories/entities';
const inScope = projectScope('github.com-acme-ledger');

const entry = (uri: string, score?: number): ContextEntry => ({
  uri,
  text: uri,
  ...(score === undefined ? {} : { score }),
});

describe('aboutAnotherProject', () => {
  it("is true when another project's memory beats all of ours by more than the margin", () => {
    expect(aboutAnotherProject([entry(OURS, 0.62), entry(USERS, 0.64), entry(THEIRS, 0.81)], inScope)).toBe(true);
    expect(aboutAnotherProject([entry(THEIRS, 0.7)], inScope)).toBe(true);
  });

  it('is false within the margin, without another project, and for folders or missing scores', () => {
    const within = 0.7 + OTHER_PROJECT_MARGIN - 0.001;
    expect(aboutAnotherProject([entry(OURS, 0.7), entry(THEIRS, within)], inScope)).toBe(false);
    expect(aboutAnotherProject([entry(OURS, 0.6), entry(USERS, 0.5)], inScope)).toBe(false);
    expect(aboutAnotherProject([entry(OURS, 0.6), entry(THEIR_FOLDER, 0.9)], inScope)).toBe(false);
    expect(aboutAnotherProject([entry(OURS, 0.6), entry(THEIRS)], inScope)).toBe(false);
    expect(aboutAnotherProject([], inScope)).toBe(false);
  });
});

describe('recallMemories for a prompt about another project', () => {
  const recall = (theirs: number) =>
    recallMemories({
      client: {
        searchContext: async () => ({
          ok: true,
          result: { entries: [entry(THEIRS, theirs), entry(OURS, 0.68)], rendered: '', digest: '' },
        }),
      } as unknown as OpenVikingClient,
      settings: {
        scoreThreshold: 0.35,
        recallMinRelevance: 0,
        recallMaxTokens: 1600,
        recallDedupTurns: 0,
        recallLimit: 10,
        recallMaxContentChars: 500,
        recallPeerScope: 'all',
        recallOtherPeerPenalty: 0.1,
        recallExcludeUris: [],
      },
      credentials: { baseUrl: 'http://ov', apiKey: '', account: '', user: 'dana' },
      known: { tier: 'context' },
      ovSessionId: '',
      query: 'who owns the snowflake account',
      actorPeer: 'github.com-acme-ledger',
    });

  it('injects nothing', async () => {
    expect((await recall(0.8)).outcome).toEqual({ status: 'empty', tier: 'context' });
  });

  it("keeps the project's own memory, never the other's, when the other does not clearly win", async () => {
    const { outcome } = await recall(0.7);
    expect(outcome.status === 'hits' ? outcome.items.map((item) => item.uri) : outcome).toEqual([OURS]);
  });
});
