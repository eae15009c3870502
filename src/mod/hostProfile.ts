/**
 * The host process the module runs in, asked once per session of `$`
 * itself. Only Claude Code loads this module (D31: its manifest names it),
 * and `$.process.hookEnv()` answers the variables its command hooks get:
 * `CLAUDE_PID`, the process's id and the hand-off flags' value
 * (protocol/handoff.ts), `CLAUDE_PLUGIN_ROOT`, `CLAUDE_PROJECT_DIR`, ….
 *
 * No hand-off where the hook commands would not read one: without a
 * process id, or when the CLI's own environment holds CodeBuddy's hook mark
 * (a Claude Code started from a CodeBuddy hook inherits it, and our hook
 * commands there never step aside), so the module never takes an event the
 * hook command will do too. The calls are made, not tested for: the host
 * reads `$` only as `$.noun.op(...)` at a call site.
 *
 * @module
 */
import type { Engine } from './host.js';

export interface HostProfile {
  /** The host process's id (`CLAUDE_PID`); undefined: the module hands nothing off this session. */
  processId: string | undefined;
  /** What the host adds to its command hooks' environment (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PROJECT_DIR`, …). */
  hookEnv: Readonly<Record<string, string>>;
}

let asked: Promise<HostProfile> | undefined;

/** The host of this session (the module's state lives as long as the session). */
export function hostProfile($: Engine): Promise<HostProfile> {
  asked ??= detectHost($);
  return asked;
}

async function detectHost($: Engine): Promise<HostProfile> {
  const [env, codebuddyHook] = await Promise.all([
    orNothing(() => $.process.hookEnv()),
    orNothing(() => $.env.get('CODEBUDDY_PLUGIN_ROOT')),
  ]);
  const hookEnv = Object.fromEntries(
    Object.entries(env ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
  const pid = hookEnv.CLAUDE_PID;
  const handsOff = pid !== undefined && pid !== '' && (codebuddyHook === undefined || codebuddyHook === '');
  return { processId: handsOff ? pid : undefined, hookEnv };
}

/** What `ask` answers, or undefined when it fails. */
async function orNothing<T>(ask: () => Promise<T>): Promise<T | undefined> {
  try {
    return await ask();
  } catch {
    return undefined;
  }
}
