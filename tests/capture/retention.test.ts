/**
 * Capture state retention and the start stage's independence from history
 * (issue 17 item 3, DESIGN D19), on a real data directory:
 * - the daily sweep removes a committed, idle session whose transcript is
 *   gone, or that has been idle past the retention days (state, inbox, why
 *   record), keeps one that may still need a commit or is active, and
 *   removes start answers older than a day;
 * - through the built hook and the test server: a session start in a data
 *   directory with 1,000 past capture states that look uncommitted but are
 *   not in the uncommitted index reads none of them: no commit, no worker.
 *
 * @module
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initUncommittedIndex, markUncommitted } from '../../src/capture/commitIndex.js';
import { captureStateFile, requestDir } from '../../src/capture/paths.js';
import { sweepCaptureStates, sweepIfDue } from '../../src/capture/retention.js';
import { emptyCaptureState } from '../../src/capture/state.js';
import { safeFileKey, storeLayout } from '../../src/store/paths.js';
import { createHostSim, createPayloads } from '../support/host-sim/index.js';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

const DAY = 86_400_000;
const NOW = Date.now();
const RULES = { staleCommitIdleMs: 30 * 60_000, captureRetentionDays: 90 };

let root: string;
let server: OvTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(root, { recursive: true, force: true });
});

function sandbox(): { dataDir: string; transcripts: string } {
  root = mkdtempSync(join(tmpdir(), 'ov-retention-'));
  const dataDir = join(root, 'data');
  const transcripts = join(root, 'projects');
  mkdirSync(join(dataDir, 'capture'), { recursive: true, mode: 0o700 });
  mkdirSync(transcripts, { recursive: true });
  return { dataDir, transcripts };
}

/** Writes a capture state as the writer leaves it; the file's mtime is its last write. */
function pastSession(dataDir: string, id: string, fields: Record<string, unknown>, activeAt: number): string {
  const state = {
    version: 1,
    ...emptyCaptureState({ ovSessionId: id, hostSessionId: id.slice(3), workspace: '/ws' }),
    lastCaptureAt: activeAt,
    lastCommitAt: activeAt,
    ...fields,
  };
  const file = captureStateFile(dataDir, id);
  writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
  utimesSync(file, activeAt / 1000, activeAt / 1000);
  mkdirSync(requestDir(dataDir, id), { recursive: true });
  return file;
}

function transcript(dir: string, name: string): string {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, '{}\n');
  return path;
}

describe('capture state retention', () => {
  it('removes committed idle sessions whose transcript is gone or that passed the retention days; keeps the rest', async () => {
    const { dataDir, transcripts } = sandbox();
    initUncommittedIndex(dataDir);
    const gone = pastSession(
      dataDir,
      'cb-gone',
      { transcriptPath: join(transcripts, 'deleted.jsonl') },
      NOW - 2 * 3_600_000,
    );
    const why = join(storeLayout(dataDir).sessionsDir, `${safeFileKey('cb-gone#why')}.why.jsonl`);
    mkdirSync(storeLayout(dataDir).sessionsDir, { recursive: true });
    writeFileSync(why, '{}\n');
    const ancient = pastSession(
      dataDir,
      'cb-ancient',
      { transcriptPath: transcript(transcripts, 'ancient') },
      NOW - 91 * DAY,
    );
    const idle = pastSession(
      dataDir,
      'cb-idle',
      { transcriptPath: transcript(transcripts, 'idle') },
      NOW - 2 * 3_600_000,
    );
    const active = pastSession(
      dataDir,
      'cb-active',
      { transcriptPath: join(transcripts, 'deleted-too.jsonl') },
      NOW - 60_000,
    );
    const uncommitted = pastSession(
      dataDir,
      'cb-uncommitted',
      { transcriptPath: join(transcripts, 'x.jsonl'), capturedSinceCommit: 2 },
      NOW - 91 * DAY,
    );
    const indexed = pastSession(
      dataDir,
      'cb-indexed',
      { transcriptPath: join(transcripts, 'y.jsonl') },
      NOW - 91 * DAY,
    );
    markUncommitted(dataDir, { ovSessionId: 'cb-indexed', hostSessionId: 'indexed', workspace: '/ws' }, NOW - 91 * DAY);
    const pending = pastSession(
      dataDir,
      'cb-pending',
      { transcriptPath: join(transcripts, 'z.jsonl') },
      NOW - 91 * DAY,
    );
    writeFileSync(join(requestDir(dataDir, 'cb-pending'), '000000000000001-a.json'), '{}');
    const oldAnswer = join(storeLayout(dataDir).sessionsDir, 'cb-old_start-0123.json');
    const newAnswer = join(storeLayout(dataDir).sessionsDir, 'cb-new_start-4567.json');
    writeFileSync(oldAnswer, '{}');
    utimesSync(oldAnswer, (NOW - 2 * DAY) / 1000, (NOW - 2 * DAY) / 1000);
    writeFileSync(newAnswer, '{}');

    const summary = await sweepCaptureStates(dataDir, RULES, NOW);

    expect(summary).toMatchObject({ removed: 2, startAnswersRemoved: 1 });
    for (const file of [gone, ancient, why, oldAnswer]) expect(existsSync(file), file).toBe(false);
    expect(existsSync(requestDir(dataDir, 'cb-gone'))).toBe(false);
    for (const file of [idle, active, uncommitted, indexed, pending, newAnswer])
      expect(existsSync(file), file).toBe(true);
  });

  it('removes nothing before the uncommitted index exists, and runs at most once a day', async () => {
    const { dataDir, transcripts } = sandbox();
    const gone = pastSession(
      dataDir,
      'cb-gone',
      { transcriptPath: join(transcripts, 'deleted.jsonl') },
      NOW - 2 * 3_600_000,
    );
    expect((await sweepCaptureStates(dataDir, RULES, NOW)).removed).toBe(0);
    initUncommittedIndex(dataDir);
    expect((await sweepIfDue(dataDir, RULES, NOW))?.removed).toBe(1);
    expect(existsSync(gone)).toBe(false);
    pastSession(dataDir, 'cb-gone-2', { transcriptPath: join(transcripts, 'deleted.jsonl') }, NOW - 2 * 3_600_000);
    expect(await sweepIfDue(dataDir, RULES, NOW + 60_000)).toBeUndefined();
    expect((await sweepIfDue(dataDir, RULES, NOW + DAY + 1))?.removed).toBe(1);
  });
});

describe('a session start is independent of history', () => {
  it('1,000 past capture states that look uncommitted but are not in the index: none is read, nothing committed, no worker', async () => {
    const { dataDir, transcripts } = sandbox();
    server = await startOvServer();
    const home = join(root, 'home');
    const workspace = join(root, 'ws');
    mkdirSync(home, { mode: 0o700 });
    mkdirSync(workspace);
    const shared = transcript(transcripts, 'grown');
    writeFileSync(shared, '{}\n'.repeat(1000));
    for (let n = 0; n < 1_000; n++)
      pastSession(
        dataDir,
        `cb-past-${n}`,
        { transcriptPath: shared, capturedSinceCommit: 3, workspace },
        NOW - 2 * 3_600_000,
      );
    initUncommittedIndex(dataDir);
    const sim = createHostSim({
      pluginRoot: process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT,
      home,
      workspace,
      env: { OPENVIKING_URL: server.url, OPENVIKING_CODEBUDDY_DATA_DIR: dataDir },
    });
    const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
    const result = await sim.fire('SessionStart', p.sessionStart('startup'));
    expect(result.timedOut).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 3_000)); // a worker, had one been started, would have sent commits by now
    expect(server.requests({ path: /\/sessions\// })).toEqual([]);
    expect(readdirSync(join(dataDir, 'capture', 'uncommitted'))).toEqual(['.ready']);
  });
});
