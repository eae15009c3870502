/**
 * A sandbox for the hooks module's recall and start (tests/mod/recall,
 * start): the OpenViking test server, a fresh HOME and workspace, and module
 * sessions (the BUILT hooks/register.mjs in the harness) whose `$.fs`,
 * `$.http.fetch` and `$.clock` are this machine's (hostIo.ts), so the module
 * reads and writes real files and talks to the real test server. Events
 * carry the payloads the hook commands get on stdin.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HANDOFF_FLAGS, type HandoffKind } from '../../../src/protocol/handoff.js';
import { useHostIo } from '../../support/mods-harness/hostIo.js';
import { startModSession, type HostProfileName, type ModSession } from '../../support/mods-harness/index.js';
import { CLAUDE_PID } from '../../support/mods-harness/profiles.js';
import { startOvServer, type OvServerOptions, type OvTestServer } from '../../support/ov-server/index.js';
import { DEFAULT_SEED } from '../../session/support/world.js';

export interface ModWorld {
  server: OvTestServer;
  home: string;
  workspace: string;
  dataDir: string;
  /** The CLI's environment every session starts with. */
  env: Record<string, string>;
  session(options?: {
    profile?: HostProfileName;
    env?: Record<string, string>;
    sessionId?: string;
    fetch?: boolean;
  }): Promise<ModSession>;
  dispose(): Promise<void>;
}

export async function createModWorld(
  options: { server?: OvServerOptions; env?: Record<string, string> } = {},
): Promise<ModWorld> {
  const server = await startOvServer({ seed: DEFAULT_SEED, ...options.server });
  const home = mkdtempSync(join(tmpdir(), 'ov-mod-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'ov-mod-ws-'));
  const env = { HOME: home, OPENVIKING_URL: server.url, ...options.env };
  return {
    server,
    home,
    workspace,
    dataDir: join(home, '.codebuddy', 'openviking'),
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
    dispose: async () => {
      await server.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(workspace, { recursive: true, force: true });
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
