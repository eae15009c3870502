/**
 * Which project a hook event belongs to. SessionStart carries no `cwd` on
 * CodeBuddy (seed 000 §4; codebuddy-host README §2), so the host's project
 * variables stand in, and the hook process's own directory (the host starts
 * hooks in the workspace) comes last.
 *
 * @module
 */
import type { HookInput } from '../protocol/input.js';

type Env = Readonly<Record<string, string | undefined>>;

/** `input.cwd`, else CODEBUDDY_PROJECT_DIR, else CLAUDE_PROJECT_DIR, else `cwd`. */
export function resolveWorkspace(input: Pick<HookInput, 'cwd'>, env: Env, cwd: string): string {
  for (const candidate of [input.cwd, env.CODEBUDDY_PROJECT_DIR, env.CLAUDE_PROJECT_DIR]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate;
  }
  return cwd;
}
