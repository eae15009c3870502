/**
 * The user's side of an import in the e2e scenarios (DESIGN D35): sessions
 * that ended a while ago, and `node scripts/hook.mjs import` run from a
 * shell in the sandbox's HOME and workspace against the test server.
 *
 * @module
 */
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { runProcess, type ProcessRun } from '../../support/spawn-hook.js';
import { REPO_ROOT } from './repo.js';

/** Dates the transcripts two hours back: sessions that ended then are not live any more. */
export function endedHoursAgo(transcripts: readonly string[]): void {
  const at = (Date.now() - 2 * 3600_000) / 1000;
  for (const transcript of transcripts) utimesSync(transcript, at, at);
}

/** `node scripts/hook.mjs import` as the sandbox's user runs it, in its workspace. */
export function importFromShell(sandbox: { home: string; workspace: string }, ovUrl: string): Promise<ProcessRun> {
  return runProcess(process.execPath, [join(REPO_ROOT, 'scripts', 'hook.mjs'), 'import'], {
    env: { PATH: process.env.PATH, HOME: sandbox.home, OPENVIKING_URL: ovUrl },
    cwd: sandbox.workspace,
    timeoutMs: 60_000,
  });
}
