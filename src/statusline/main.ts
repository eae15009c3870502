/**
 * Entry of `scripts/statusline.mjs`, CodeBuddy's (and Claude Code's)
 * `statusLine` command: prints ONE line of memory state and exits.
 *
 * The host redraws the status line at most every 300 ms and reads only the
 * first line of stdout, so this answers from cached state only (no network),
 * waits for stdin at most briefly (a run by hand has no payload), and prints
 * a fallback line rather than nothing if anything goes wrong. `--no-color`
 * (or NO_COLOR) prints it without ANSI codes. The only file
 * of the status line that touches `process`.
 *
 * @module
 */
import { homedir } from 'node:os';
import { readBoundedStdin } from '../protocol/stdin.js';
import { inertForCommand } from '../protocol/commandOutput.js';
import { formatStatusLine } from './format.js';
import { gatherStatusLineFacts } from './gather.js';

/** The payload is a few hundred bytes. */
const MAX_STDIN_BYTES = 64 * 1024;
/** A host writes and closes stdin at once; a terminal or open pipe is not waited on longer. */
const STDIN_TIMEOUT_MS = 150;
/** Whatever happens, the process is gone after this. */
const HARD_EXIT_MS = 1_000;

async function main(): Promise<void> {
  const stdin = await readBoundedStdin(process.stdin, MAX_STDIN_BYTES, STDIN_TIMEOUT_MS);
  // `--no-color` (the /openviking:status command) acts like NO_COLOR.
  const env = process.argv.includes('--no-color') ? { ...process.env, NO_COLOR: '1' } : process.env;
  const facts = await gatherStatusLineFacts({
    env,
    homeDir: homedir(),
    now: Date.now(),
    stdinText: stdin.status === 'complete' ? stdin.text : '',
  });
  finish(`${inertForCommand(formatStatusLine(facts))}\n`);
}

let finished = false;
function finish(line: string): void {
  if (finished) return;
  finished = true;
  process.stdout.write(line, () => process.exit(0));
}

setTimeout(() => finish('OV ?\n'), HARD_EXIT_MS).unref();
main().catch(() => finish('OV ?\n'));
