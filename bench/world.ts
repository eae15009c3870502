/**
 * The sandbox every benchmark runs in: a private copy of the built plugin
 * (tests/faults/support/plugin.ts: so a rebuild by someone else mid-run
 * cannot change what is measured, and its workers can be told apart from
 * anyone else's by path), a fresh HOME and workspace, the OpenViking test server
 * with a few memories to recall, and the exact command lines hooks.json
 * gives each event, run through `$SHELL -c` as CodeBuddy runs them.
 *
 * @module
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createPayloads, loadHooksConfig, substitutePluginRoot } from '../tests/support/host-sim/index.js';
import type { Payloads } from '../tests/support/host-sim/index.js';
import { stopResidents } from '../tests/support/detached.js';
import { startOvServer } from '../tests/support/ov-server/index.js';
import type { OvTestServer } from '../tests/support/ov-server/index.js';
import { copyBuiltPlugin } from '../tests/faults/support/plugin.js';
import type { Command } from './process.js';

export const HOST_SHELL = '/bin/bash';

export interface BenchWorld {
  pluginRoot: string;
  home: string;
  workspace: string;
  server: OvTestServer;
  payloads: Payloads;
  /** Payloads of a new session (its own id and transcript path), in the same workspace and HOME. */
  freshSession(): Payloads;
  env: Record<string, string>;
  /** `$SHELL -c <hooks.json command of event>` with `stdin`. */
  hookCommand(event: string, stdin: string, toolName?: string): Command;
  /** `$SHELL -c 'node -e 0'`: the same shell, nothing of ours. */
  bareNode(): Command;
  dispose(): Promise<void>;
}

const MEMORIES = {
  'memories/preferences/bench/editor.md': {
    content: 'Uses Helix with the default keymap for Rust work.',
    abstract: 'Editor: Helix for Rust',
  },
  'memories/preferences/bench/testing.md': {
    content: 'Prefers vitest with real sockets, never module mocks.',
    abstract: 'Testing: vitest, real sockets',
  },
  'memories/entities/bench/openviking.md': {
    content: 'OpenViking is the memory server this plugin talks to.',
    abstract: 'OpenViking memory server',
  },
  'memories/events/bench/release.md': {
    content: 'Released version 0.1 of the Rust CLI after the editor migration.',
    abstract: 'Release 0.1 of the Rust CLI',
  },
};

/** @param builtRoot - where the built plugin is (default: the repository after `npm run build`). */
export async function createBenchWorld(extraEnv: Record<string, string> = {}, builtRoot?: string): Promise<BenchWorld> {
  const root = await mkdtemp(join(tmpdir(), 'ov-bench-'));
  const plugin = await copyBuiltPlugin(builtRoot);
  const pluginRoot = plugin.root;
  const home = join(root, 'home');
  const workspace = join(root, 'workspace');
  await mkdir(home, { mode: 0o700 });
  await mkdir(workspace);
  const server = await startOvServer({ seed: { user: 'default', files: MEMORIES } });
  const configDir = join(home, '.codebuddy');
  const payloads = createPayloads({ workspace, configDir });
  const hooks = loadHooksConfig(pluginRoot);
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    SHELL: HOST_SHELL,
    LANG: 'C.UTF-8',
    CODEBUDDY_PLUGIN_ROOT: pluginRoot,
    CLAUDE_PLUGIN_ROOT: pluginRoot,
    CODEBUDDY_PROJECT_DIR: workspace,
    CLAUDE_PROJECT_DIR: workspace,
    OPENVIKING_URL: server.url,
    ...extraEnv,
  };
  const commandOf = (event: string, toolName?: string): string => {
    const group = (hooks[event] ?? []).find(
      (candidate) =>
        candidate.matcher === undefined || toolName === undefined || new RegExp(candidate.matcher).test(toolName),
    );
    const hook = group?.hooks[0];
    if (hook === undefined) throw new Error(`hooks.json has no hook for ${event}`);
    return substitutePluginRoot(hook.command, pluginRoot);
  };
  return {
    pluginRoot,
    home,
    workspace,
    server,
    payloads,
    freshSession: () => createPayloads({ workspace, configDir }),
    env,
    hookCommand: (event, stdin, toolName) => ({
      file: HOST_SHELL,
      args: ['-c', commandOf(event, toolName)],
      stdin,
      env,
      cwd: workspace,
    }),
    bareNode: () => ({ file: HOST_SHELL, args: ['-c', 'node -e 0'], env, cwd: workspace }),
    dispose: async () => {
      await stopResidents(home);
      await server.close();
      await plugin.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}
