/**
 * Which host runs the module, asked once per session of `$` itself: Claude
 * Code answers `$.process.hookEnv()` with the variables its command hooks
 * get, `CLAUDE_PID` among them (the hand-off's discriminator,
 * protocol/handoff.ts); CodeBuddy's seed lists no such call, so there it
 * fails and the module takes the host for CodeBuddy, with no discriminator:
 * the module then never sets a hand-off flag and the shell hooks keep every
 * event. The call is made, not tested for: the host reads `$` only as
 * `$.noun.op(...)` at a call site.
 *
 * @module
 */
import type { HostKind } from '../protocol/hostTools.js';
import type { Engine } from './host.js';

export interface HostProfile {
  kind: HostKind;
  /** `CLAUDE_PID`; undefined where the host gives none. */
  processId: string | undefined;
  /** What the host adds to its command hooks' environment (`CLAUDE_PLUGIN_ROOT`, `CLAUDE_PROJECT_DIR`, …); {} on CodeBuddy. */
  hookEnv: Readonly<Record<string, string>>;
}

let asked: Promise<HostProfile> | undefined;

/** The host of this session (the module's state lives as long as the session). */
export function hostProfile($: Engine): Promise<HostProfile> {
  asked ??= detectHost($);
  return asked;
}

async function detectHost($: Engine): Promise<HostProfile> {
  try {
    const env = await $.process.hookEnv!();
    const processId = typeof env?.CLAUDE_PID === 'string' && env.CLAUDE_PID !== '' ? env.CLAUDE_PID : undefined;
    const hookEnv = Object.fromEntries(
      Object.entries(env ?? {}).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
    return {
      kind: processId !== undefined || env?.CLAUDECODE === '1' ? 'claude-code' : 'codebuddy',
      processId,
      hookEnv,
    };
  } catch {
    return { kind: 'codebuddy', processId: undefined, hookEnv: {} };
  }
}
