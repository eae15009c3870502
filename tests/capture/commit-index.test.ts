/**
 * When the uncommitted index (capture/commitIndex.ts, DESIGN D19) counts:
 * a data directory with no capture state yet starts it complete with its
 * first entry; one with states from before the index waits for the
 * commit-stale worker's full scan, so a writer's own entry never hides the
 * older sessions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  initUncommittedIndex,
  listUncommitted,
  markUncommitted,
  nothingLeftToCommit,
} from '../../src/capture/commitIndex.js';
import { emptyCaptureState, hasWorkLeft, saveCaptureState, workLeft } from '../../src/capture/state.js';

const dirs: string[] = [];
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ov-commit-index-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const entry = (id: string) => ({ ovSessionId: id, hostSessionId: id.replace(/^cb-/, ''), workspace: '/ws' });

describe('uncommitted index', () => {
  it('a data dir with nothing captured yet: the first entry starts a complete index', () => {
    const dir = dataDir();
    expect(listUncommitted(dir)).toBe('missing');
    expect(markUncommitted(dir, entry('cb-first'))).toBe(true);
    const listed = listUncommitted(dir);
    expect(listed === 'missing' ? listed : listed.map((item) => item.ovSessionId)).toEqual(['cb-first']);
  });

  it("a data dir with states from before the index: a writer's entry does not make it the index until the scan is done", async () => {
    const dir = dataDir();
    const old = emptyCaptureState({ ovSessionId: 'cb-old', hostSessionId: 'old', workspace: '/ws' });
    expect((await saveCaptureState(dir, old)).ok).toBe(true);
    expect(markUncommitted(dir, entry('cb-new'))).toBe(true);
    expect(listUncommitted(dir)).toBe('missing');
    // The commit-stale worker's scan: entries for the old states, then the marker.
    expect(markUncommitted(dir, entry('cb-old'), Date.now() - 60_000)).toBe(true);
    initUncommittedIndex(dir);
    const listed = listUncommitted(dir);
    expect(listed === 'missing' ? listed : listed.map((item) => item.ovSessionId).sort()).toEqual(['cb-new', 'cb-old']);
  });
});

describe('work left: one model for the pass, the index, commit-stale and retention', () => {
  const base = emptyCaptureState({ ovSessionId: 'cb-s', hostSessionId: 's', workspace: '/ws' });
  const intent = { fingerprint: 'f', recordIds: ['r'] };
  const inflight = { fingerprint: 'f', recordIds: ['r'], before: { live: 0 }, queued: false, startedAt: 0 };

  it('reads acknowledged-uncommitted and in-transit messages apart', () => {
    expect(workLeft(base)).toEqual({ uncommitted: false, inTransit: false });
    expect(workLeft({ ...base, capturedSinceCommit: 3 })).toEqual({ uncommitted: true, inTransit: false });
    for (const transit of [{ queued: ['q'] }, { inflight }, { enqueueIntent: intent }]) {
      expect(workLeft({ ...base, ...transit }), JSON.stringify(transit)).toEqual({
        uncommitted: false,
        inTransit: true,
      });
      expect(hasWorkLeft({ ...base, ...transit })).toBe(true);
    }
  });

  it('an index entry goes only when nothing is in transit and the commit left nothing', () => {
    expect(nothingLeftToCommit(base, undefined)).toBe(true);
    expect(nothingLeftToCommit({ ...base, capturedSinceCommit: 1 }, undefined)).toBe(false);
    expect(nothingLeftToCommit({ ...base, capturedSinceCommit: 1 }, 'committed')).toBe(true);
    expect(nothingLeftToCommit({ ...base, enqueueIntent: intent }, 'committed')).toBe(false);
  });
});
