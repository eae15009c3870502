/**
 * Facts read from the CLI's own log (`<config>/logs/<date>/<ws>__<hash>.log`)
 * and from the shipped hooks.json. Wall time is a poor witness on a loaded
 * machine (a CLI start varied from 6 s to 20 s here), so the "did a hook stall"
 * questions are answered from the host's own record instead: a hook killed at
 * its timeout is logged as `Hook timed out after …` / `timedOut=true`.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo.js';

/** Log lines in which the CLI reports a hook killed at its timeout. */
export function hookTimeoutLines(cliLog: string): string[] {
  return cliLog.split('\n').filter((line) => /Hook timed out after|timedOut=true/.test(line));
}

/** Log lines of hook spawns (`[HookExecutor] spawn … cmd=…`). */
export function hookSpawnLines(cliLog: string): string[] {
  return cliLog.split('\n').filter((line) => line.includes('[HookExecutor] spawn'));
}

interface HooksFile {
  hooks: Record<string, Array<{ hooks: Array<{ timeout?: number }> }>>;
}

/** The shipped hook timeout of `event` in ms (the largest, if several), or 60 s (the host default) when unset. */
export function shippedHookTimeoutMs(event: string): number {
  const file = JSON.parse(readFileSync(join(REPO_ROOT, 'hooks', 'hooks.json'), 'utf8')) as HooksFile;
  const seconds = (file.hooks[event] ?? []).flatMap((group) => group.hooks.map((hook) => hook.timeout ?? 60));
  return (seconds.length ? Math.max(...seconds) : 60) * 1000;
}
