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
import { initUncommittedIndex, listUncommitted, markUncommitted } from '../../src/capture/commitIndex.js';
import { emptyCaptureState, saveCaptureState } from '../../src/capture/state.js';

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

  it('a data dir with states from before the index: a writer\'s entry does not make it the index until the scan is done', async () => {
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
