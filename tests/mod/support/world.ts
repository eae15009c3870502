/**
 * A sandbox for the hooks module's recall and start (tests/mod/recall,
 * start): the OpenViking test server, a fresh HOME and workspace
 * (tests/support/server-sandbox.ts), and module
 * sessions (the BUILT hooks/register.mjs in the harness) whose `$.fs`,
 * `$.http.fetch` and `$.clock` are this machine's (hostIo.ts), so the module
 * reads and writes real files and talks to the real test server. Events
 * carry the payloads the hook commands get on stdin.
 *
 * @module
 */
import { join } from 'node:path';
import { HANDOFF_FLAGS, type HandoffKind } from '../../../src/protocol/handoff.js';
import { useHostIo } from '../../support/mods-harness/hostIo.js';
import { startModSession, type HostProfileName, type ModSession } from '../../support/mods-harness/index.js';
import { CLAUDE_PID } from '../../support/mods-harness/profiles.js';
import type { OvServerOptions } from '../../support/ov-server/index.js';
import { createServerSandbox, type OwnedServerSandbox } from '../../support/server-sandbox.js';
import { DEFAULT_SEED } from '../../support/session-world.js';

/** The sandbox (server, HOME, workspace, data dir, `dispose`) and module sessions in it. */
export interface ModWorld extends OwnedServerSandbox {
  /** The CLI's environment every session starts with. */
  env: Record<string, string>;
  session(options?: {
    profile?: HostProfileName;
    env?: Record<string, string>;
    sessionId?: string;
    fetch?: boolean;
  }): Promise<ModSession>;
}

export async function createModWorld(
  options: { server?: OvServerOptions; env?: Record<string, string> } = {},
): Promise<ModWorld> {
  const box = await createServerSandbox('ov-mod-', { seed: DEFAULT_SEED, ...options.server });
  const env = { HOME: box.home, OPENVIKING_URL: box.server.url, ...options.env };
  return {
    ...box,
    env,
    session: async (given = {}) => {
      const profile = given.profile ?? 'claude-code';
      const session = await startModSession({
        profile,
        env: { ...env, ...given.env },
        ...(given.sessionId !== undefined ? { sessionId: given.sessionId } : {}),
      });
      useHostIo(session, { fetch: given.fetch !== false });
      return session;
    },
  };
}

/** The shell hook's stdin for a prompt, as `classic.UserPromptSubmit` carries it. */
export function promptEvent(
  world: Pick<ModWorld, 'workspace'>,
  prompt: string,
  sessionId = 'session-1',
): Record<string, unknown> {
  return {
    session_id: sessionId,
    transcript_path: join(world.workspace, 't.jsonl'),
    cwd: world.workspace,
    prompt_id: 'p1',
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  };
}

/** The same for a session start. */
export function startEvent(
  world: Pick<ModWorld, 'workspace'>,
  source = 'startup',
  sessionId = 'session-1',
): Record<string, unknown> {
  return {
    session_id: sessionId,
    transcript_path: join(world.workspace, 't.jsonl'),
    cwd: world.workspace,
    hook_event_name: 'SessionStart',
    source,
  };
}

/** What ran beneath the module (everyone's hook commands): the flags it saw, and the answer it folds. */
export function beneath(
  session: ModSession,
  answer: Record<string, unknown> = { additionalContext: ['OTHER-PLUGIN-CONTEXT'] },
) {
  const seen: Array<Partial<Record<HandoffKind, string | undefined>>> = [];
  return {
    seen,
    run: () => {
      seen.push({
        prompt: session.env.get(HANDOFF_FLAGS.prompt),
        start: session.env.get(HANDOFF_FLAGS.start),
      });
      return answer;
    },
  };
}

export { CLAUDE_PID };
