/**
 * An exec probe: shims for `node`, `sh` and `head` first on a CLI's PATH,
 * each logging its arguments and then exec-ing the real program. The CLIs
 * start hook shells by absolute path (`/bin/sh -c`), and the commands in
 * them reach node, sh and head through PATH, so the log says which of this
 * plugin's programs ran (the dispatcher, the guard prefilter and its head)
 * without changing what runs.
 *
 * @module
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ExecProbe {
  /** `PATH` with the shims first. */
  path(basePath: string): string;
  /** The logged command lines (`node /…/scripts/hook.cjs`, `sh /…/hooks/guard-prefilter.sh`, …). */
  lines(): string[];
}

const REAL = { node: process.execPath, sh: '/bin/sh', head: '/usr/bin/head' } as const;

/**
 * A start of the hook dispatcher on the host's clock, as the exec probe logs it: `node …/scripts/hook.cjs`, or
 * `… hook.cjs door <print>` when hooks/relay.sh found no open door (D45); never the detached ones.
 */
export function isDispatcherRun(line: string): boolean {
  return /^node \S*scripts\/hook\.cjs( door \d+-\d+)?$/.test(line);
}

export function createExecProbe(dir: string): ExecProbe {
  const bin = join(dir, 'bin');
  const log = join(dir, 'exec.log');
  mkdirSync(bin, { recursive: true });
  for (const [name, real] of Object.entries(REAL)) {
    // The arguments only: the shim must not read stdin (it is the hook's payload). One write per line, so the
    // shims of hooks running at the same time (another plugin's, the user's) never interleave their lines.
    writeFileSync(
      join(bin, name),
      `#!/bin/sh\nline='${name}'\nfor a in "$@"; do line="$line $a"; done\nprintf '%s\\n' "$line" >> '${log}'\nexec '${real}' "$@"\n`,
    );
    chmodSync(join(bin, name), 0o755);
  }
  return {
    path: (basePath) => `${bin}:${basePath}`,
    lines: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
        : [],
  };
}
