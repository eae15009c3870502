/**
 * Two (or more) projects on one machine: real git repositories with their
 * own remotes, one sandboxed HOME, one OpenViking test server that extracts
 * a memory per peer at commit, and a host simulator per workspace running
 * the BUILT bundle. `captureTurn` writes a CodeBuddy 2.117 turn to the
 * session's transcript, fires Stop and SessionEnd (which commits), and
 * waits for the background capture to finish.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until, turnRecords } from '../../capture/support/world.js';
import { detachedRuns, stopResidents } from '../../support/detached.js';
import { createHostSim, createPayloads } from '../../support/host-sim/index.js';
import type { FireResult, HostSim, Payloads } from '../../support/host-sim/index.js';
import { startOvServer } from '../../support/ov-server/index.js';
import type { OvTestServer } from '../../support/ov-server/index.js';
import { REPO_ROOT, spawnHook } from '../../support/spawn-hook.js';
import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ProjectWorkspace {
  dir: string;
  sim: HostSim;
  /** A new session's payloads in this workspace. */
  payloads(): Payloads;
  /** Captures one turn into a new session of this workspace and commits it. */
  captureTurn(user: string, assistant: string): Promise<string>;
  /** A session whose first turn is captured (Stop, no commit) and whose second is only in the transcript, as a session that ended without its last Stop. */
  leaveTurnBehind(first: string, second: string): Promise<string>;
  /** The plugin's recall context for a prompt ('' when none). */
  recall(prompt: string): Promise<string>;
  /** `node scripts/hook.mjs trust` run here, as the user approves the workspace files' peer (D32); its output. */
  trust(...args: string[]): Promise<string>;
}

export interface ProjectsWorld {
  server: OvTestServer;
  home: string;
  root: string;
  /**
   * A git repository with `remote` as origin (none: no remote; null: not a
   * repository). `config` / `localConfig` are written as its
   * `.openviking/config.json` / `config.local.json`; `prepare` may change the
   * repository and returns the folder the hooks run in (a subdirectory, a
   * linked worktree), default the repository.
   */
  workspace(
    remote: string | undefined | null,
    options?: {
      env?: Record<string, string>;
      config?: Record<string, unknown>;
      localConfig?: Record<string, unknown>;
      resident?: boolean;
      prepare?: (repository: string) => string;
    },
  ): ProjectWorkspace;
  dispose(): Promise<void>;
}

/** The built plugin the hooks run from (`OV_BUILT_PLUGIN_DIR`: another build). */
const PLUGIN_ROOT = process.env.OV_BUILT_PLUGIN_DIR || REPO_ROOT;

export function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

export async function createProjectsWorld(env: Record<string, string> = {}): Promise<ProjectsWorld> {
  const server = await startOvServer({ extractOnCommit: true });
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'ov-projects-')));
  const home = join(root, 'home');
  mkdirSync(home);
  let count = 0;
  const workspace: ProjectsWorld['workspace'] = (remote, options = {}) => {
    const repository = join(root, `ws-${++count}`);
    mkdirSync(repository);
    if (remote !== null) git(repository, 'init', '-q');
    if (typeof remote === 'string') git(repository, 'remote', 'add', 'origin', remote);
    for (const [name, content] of [
      ['config.json', options.config],
      ['config.local.json', options.localConfig],
    ] as const) {
      if (content === undefined) continue;
      mkdirSync(join(repository, '.openviking'), { recursive: true });
      writeFileSync(join(repository, '.openviking', name), JSON.stringify(content));
    }
    const dir = options.prepare?.(repository) ?? repository;
    const sim = createHostSim({
      pluginRoot: PLUGIN_ROOT,
      home,
      workspace: dir,
      resident: options.resident === true,
      env: { OPENVIKING_URL: server.url, OPENVIKING_TIMEOUT_MS: '5000', ...env, ...options.env },
    });
    const payloads = () => createPayloads({ workspace: dir, configDir: join(home, '.codebuddy') });
    return {
      dir,
      sim,
      payloads,
      captureTurn: async (user, assistant) => {
        const p = payloads();
        mkdirSync(dirname(p.transcriptPath), { recursive: true });
        appendFileSync(
          p.transcriptPath,
          turnRecords(p.sessionId, dir, user, assistant)
            .map((record) => `${JSON.stringify(record)}\n`)
            .join(''),
        );
        await sim.fire('Stop', p.stop(assistant));
        await until(() => detachedRuns(home).length === 0, 20_000, 'the Stop capture');
        await sim.fire('SessionEnd', p.sessionEnd('other'));
        await until(() => detachedRuns(home).length === 0, 20_000, 'the SessionEnd commit');
        return `cb-${p.sessionId}`;
      },
      leaveTurnBehind: async (first, second) => {
        const p = payloads();
        mkdirSync(dirname(p.transcriptPath), { recursive: true });
        const append = (text: string) =>
          appendFileSync(
            p.transcriptPath,
            turnRecords(p.sessionId, dir, text, 'ok')
              .map((record) => `${JSON.stringify(record)}\n`)
              .join(''),
          );
        append(first);
        await sim.fire('Stop', p.stop('ok'));
        await until(() => detachedRuns(home).length === 0, 20_000, 'the Stop capture');
        append(second);
        return `cb-${p.sessionId}`;
      },
      recall: async (prompt) => contextOf(await sim.fire('UserPromptSubmit', payloads().userPromptSubmit(prompt))),
      trust: async (...args) =>
        (
          await spawnHook({
            pluginRoot: PLUGIN_ROOT,
            args: ['trust', ...args],
            cwd: dir,
            env: { PATH: process.env.PATH, ...sim.env },
          })
        ).stdout,
    };
  };
  return {
    server,
    home,
    root,
    workspace,
    dispose: async () => {
      await stopResidents(home);
      await server.close();
      rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

function contextOf(result: FireResult): string {
  return result.outputs[0]?.additionalContext ?? '';
}
