/**
 * An import test world: the OpenViking test server and a sandboxed HOME and
 * workspace (tests/support/server-sandbox.ts), the HOME's
 * `.codebuddy/projects/` and `.claude/projects/` holding session transcripts
 * in each host's format (written here, dated in the past so they are not
 * live), and `node scripts/hook.mjs import` of the BUILT
 * plugin (a private copy when a test kills it) run as the user would.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import type { OvServerOptions } from '../../support/ov-server/index.js';
import { createServerSandbox, type OwnedServerSandbox } from '../../support/server-sandbox.js';
import { REPO_ROOT, runProcess, type ProcessRun } from '../../support/spawn-hook.js';
import { ovSessionId, ovSubagentSessionId } from '../../../src/session/ids.js';
import { messageText, turnRecords } from '../../capture/support/world.js';

export interface TranscriptSpec {
  /** The session's working folder; default the world's workspace. */
  cwd?: string;
  /** User prompt and assistant answer per turn. */
  turns: ReadonlyArray<readonly [string, string]>;
  /** Minutes since the transcript was last written (default 120: not live). */
  ageMinutes?: number;
}

export interface WrittenSession {
  path: string;
  sessionId: string;
  ovId: string;
}

/** The sandbox (server, HOME, workspace, data dir; `close` removes it) and the transcripts written there. */
export interface ImportWorld extends Omit<OwnedServerSandbox, 'dispose'> {
  env: Record<string, string>;
  codebuddy(spec: TranscriptSpec, sessionId?: string): WrittenSession;
  /** A CodeBuddy sub-agent file of `parent` (`<id>/subagents/agent-<x>.jsonl`). */
  codebuddySubagent(parent: WrittenSession, spec: TranscriptSpec): WrittenSession;
  claude(spec: TranscriptSpec, sessionId?: string): WrittenSession;
  /** A Claude Code sub-agent file of `parent` (`<id>/subagents/agent-<agentId>.jsonl`, every record a sidechain naming its `agentId`). */
  claudeSubagent(parent: WrittenSession, spec: TranscriptSpec, agentId: string): WrittenSession;
  /** Appends raw lines (JSON text or junk) to a transcript, keeping it in the past. */
  appendRaw(session: WrittenSession, lines: readonly string[], ageMinutes?: number): void;
  run(args: readonly string[], env?: Record<string, string>, pluginRoot?: string): Promise<ProcessRun>;
  /** Starts an import without waiting (for kills). */
  spawnImport(args: readonly string[], pluginRoot?: string, env?: Record<string, string>): ChildProcess;
  /** Texts of every message the server stored for a session, in order. */
  texts(ovId: string): string[];
  /** Every stored message text of every session. */
  allTexts(): string[];
  close(): Promise<void>;
}

const CODEBUDDY_SLUG = (cwd: string) => cwd.replace(/\//g, '-').replace(/^-/, '');
const CLAUDE_SLUG = (cwd: string) => cwd.replace(/[^A-Za-z0-9]/g, '-');

let clock = Date.parse('2026-10-01T08:00:00Z');

export async function createImportWorld(
  options: { server?: OvServerOptions; env?: Record<string, string> } = {},
): Promise<ImportWorld> {
  const box = await createServerSandbox('ov-import-', { extractOnCommit: true, ...options.server });
  const { server, home, workspace } = box;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    OPENVIKING_URL: server.url,
    OPENVIKING_TIMEOUT_MS: '5000',
    ...options.env,
  };
  const write = (path: string, records: readonly unknown[], ageMinutes = 120): void => {
    mkdirSync(dirname(path), { recursive: true });
    appendFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    age(path, ageMinutes);
  };
  const codebuddyPath = (cwd: string, id: string) =>
    join(home, '.codebuddy', 'projects', CODEBUDDY_SLUG(cwd), `${id}.jsonl`);
  return {
    ...box,
    env,
    codebuddy: (spec, sessionId = randomUUID()) => {
      const cwd = spec.cwd ?? workspace;
      const path = codebuddyPath(cwd, sessionId);
      write(
        path,
        spec.turns.flatMap(([user, assistant]) => codebuddyTurn(sessionId, cwd, user, assistant)),
        spec.ageMinutes,
      );
      return { path, sessionId, ovId: ovSessionId(sessionId) };
    },
    codebuddySubagent: (parent, spec) => {
      const cwd = spec.cwd ?? workspace;
      const agentId = `agent-${randomUUID().slice(0, 8)}`;
      const path = join(dirname(parent.path), parent.sessionId, 'subagents', `${agentId}.jsonl`);
      const own = randomUUID();
      write(
        path,
        spec.turns.flatMap(([user, assistant]) => codebuddyTurn(own, cwd, user, assistant)),
        spec.ageMinutes,
      );
      return { path, sessionId: parent.sessionId, ovId: ovSubagentSessionId(parent.sessionId, agentId) };
    },
    claude: (spec, sessionId = randomUUID()) => {
      const cwd = spec.cwd ?? workspace;
      const path = join(home, '.claude', 'projects', CLAUDE_SLUG(cwd), `${sessionId}.jsonl`);
      write(
        path,
        spec.turns.flatMap(([user, assistant]) => claudeTurn(sessionId, cwd, user, assistant)),
        spec.ageMinutes,
      );
      return { path, sessionId, ovId: ovSessionId(sessionId) };
    },
    claudeSubagent: (parent, spec, agentId) => {
      const cwd = spec.cwd ?? workspace;
      const path = join(dirname(parent.path), parent.sessionId, 'subagents', `agent-${agentId}.jsonl`);
      const records = spec.turns
        .flatMap(([user, assistant]) => claudeTurn(parent.sessionId, cwd, user, assistant))
        .map((record) => ({ ...(record as Record<string, unknown>), isSidechain: true, agentId }));
      write(path, records, spec.ageMinutes);
      return { path, sessionId: parent.sessionId, ovId: ovSubagentSessionId(parent.sessionId, agentId) };
    },
    appendRaw: (session, lines, ageMinutes = 120) => {
      appendFileSync(session.path, lines.map((line) => `${line}\n`).join(''));
      age(session.path, ageMinutes);
    },
    run: (args, extraEnv = {}, pluginRoot = REPO_ROOT) =>
      runProcess(process.execPath, [join(pluginRoot, 'scripts', 'hook.mjs'), 'import', ...args], {
        env: { ...env, ...extraEnv },
        cwd: workspace,
        timeoutMs: 120_000,
      }),
    spawnImport: (args, pluginRoot = REPO_ROOT, extraEnv = {}) =>
      spawn(process.execPath, [join(pluginRoot, 'scripts', 'hook.mjs'), 'import', ...args], {
        cwd: workspace,
        env: { ...env, ...extraEnv },
        stdio: 'ignore',
      }),
    texts: (ovId) => (server.session(ovId)?.allMessages ?? []).map(messageText),
    allTexts: () => server.sessions().flatMap((session) => session.allMessages.map(messageText)),
    close: box.dispose,
  };
}

/** Sets a file's times `minutes` into the past. */
export function age(path: string, minutes: number): void {
  const at = (Date.now() - minutes * 60_000) / 1000;
  utimesSync(path, at, at);
}

/** A user record and an assistant record, as CodeBuddy 2.117 writes them (codebuddy-host README §5). */
export const codebuddyTurn = turnRecords;

/** A user record and an assistant record, as Claude Code 2.1 writes them (FC4). */
export function claudeTurn(sessionId: string, cwd: string, user: string, assistant: string): unknown[] {
  const userId = randomUUID();
  const t = (clock += 1_000);
  const common = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.328', gitBranch: 'main' };
  return [
    {
      ...common,
      parentUuid: null,
      uuid: userId,
      timestamp: new Date(t).toISOString(),
      type: 'user',
      message: { role: 'user', content: user },
    },
    {
      ...common,
      parentUuid: userId,
      uuid: randomUUID(),
      timestamp: new Date(t + 500).toISOString(),
      type: 'assistant',
      requestId: `req_${randomUUID()}`,
      message: {
        id: `msg_${randomUUID()}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: assistant }],
        stop_reason: 'end_turn',
      },
    },
  ];
}
