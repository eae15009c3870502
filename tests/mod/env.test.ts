/**
 * The hooks module reads the CLI's environment one literal `$.env.get` at a
 * time (the host refuses a computed name, FC8), from
 * src/mod/env/cliVariables.ts, written by tests/support/gen-mod-env.ts. Here:
 * that file is what the generator writes now (every knob's variable, the
 * credential chain's, the places), and the shared rules the module runs
 * (the prompt's and the start's plan, the guard's tool names, the block's
 * host) read no variable outside it but the host's own and the plugin's
 * options, which the module takes from `$.process.hookEnv()` and
 * `register`. A variable a loader starts reading fails the second test until
 * it is added to tests/support/mod-env.ts (D30).
 *
 * @module
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPluginConfig } from '../../src/config/load.js';
import { hostFromEnv, toolNamesFor } from '../../src/protocol/hostTools.js';
import type { StageDeps } from '../../src/protocol/stage.js';
import { planRecall } from '../../src/stages/prompt.js';
import { planStart } from '../../src/stages/startBlock.js';
import { clearProjectCache } from '../../src/project/identity.js';
import { moduleVariables, renderCliVariables } from '../support/mod-env.js';
import { REPO_ROOT } from '../support/spawn-hook.js';

/** What the host adds to its command hooks, which the module reads with `$.process.hookEnv()`. */
const HOST_VARIABLES = [
  'CLAUDE_PLUGIN_ROOT',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_PLUGIN_DATA',
  'CODEBUDDY_PLUGIN_ROOT',
  'CODEBUDDY_PROJECT_DIR',
  'CODEBUDDY_PLUGIN_DATA',
];
/** The plugin's options, which the module takes from `register` under the hooks' spelling. */
const OPTION_VARIABLE = /^(?:CODEBUDDY_PLUGIN_OPTION_|CLAUDE_PLUGIN_OPTION_|PLUGIN_OPT_)/;

const home = mkdtempSync(join(tmpdir(), 'ov-mod-env-'));
const repo = join(home, 'code', 'app');
mkdirSync(join(repo, '.git'), { recursive: true });
writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = https://example.com/acme/app.git\n');
mkdirSync(join(home, '.openviking'), { recursive: true });
writeFileSync(
  join(home, '.openviking', 'ovcli.conf'),
  JSON.stringify({ url: 'http://127.0.0.1:1933', plugin: { codebuddy: { recallLimit: 4 } } }),
);
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** An environment that records every name read. */
function recording(values: Record<string, string>): { env: Record<string, string | undefined>; read: Set<string> } {
  const read = new Set<string>();
  const env = new Proxy(values, {
    get(target, name) {
      if (typeof name === 'string') read.add(name);
      return typeof name === 'string' ? target[name] : undefined;
    },
  });
  return { env, read };
}

function depsWith(env: Record<string, string | undefined>): StageDeps {
  return {
    now: Date.now,
    env,
    cwd: repo,
    homeDir: home,
    pluginRoot: REPO_ROOT,
    http: async () => {
      throw new Error('no network here');
    },
    pid: 0,
    pipeAtomicBytes: 0,
    spawnDetached: () => false,
    afterAnswer: () => undefined,
    log: { debug: () => undefined, warn: () => undefined },
  };
}

describe('src/mod/env/cliVariables.ts', () => {
  it('is what tests/support/gen-mod-env.ts writes (run it after adding a knob or a variable)', () => {
    expect(readFileSync(join(REPO_ROOT, 'src', 'mod', 'env', 'cliVariables.ts'), 'utf8')).toBe(renderCliVariables());
  });

  const configurations: Array<[string, Record<string, string>]> = [
    ['defaults, Claude Code', { CLAUDE_PLUGIN_ROOT: REPO_ROOT, CLAUDE_PROJECT_DIR: repo }],
    ['ovcli.conf only (credential source cli)', { OPENVIKING_CREDENTIAL_SOURCE: 'cli' }],
    ['an ovcli-shaped OPENVIKING_CONFIG_FILE', { OPENVIKING_CONFIG_FILE: join(home, '.openviking', 'ovcli.conf') }],
    [
      'plugin options and a peer source',
      {
        CLAUDE_PLUGIN_OPTION_SERVER_URL: 'http://127.0.0.1:1933',
        CODEBUDDY_PLUGIN_OPTION_API_KEY: 'k',
        OPENVIKING_PEER_SOURCE: 'git,cwd',
        OPENVIKING_RECALL_PEER_SCOPE: 'actor',
      },
    ],
    [
      'a bypass pattern and the data directory moved',
      {
        OPENVIKING_BYPASS_SESSION_PATTERNS: '/nowhere/**',
        OPENVIKING_CODEBUDDY_DATA_DIR: join(home, 'data'),
        CODEBUDDY_CONFIG_DIR: join(home, 'cb'),
      },
    ],
  ];
  for (const [name, values] of configurations) {
    it(`the shared rules read nothing else: ${name}`, () => {
      clearProjectCache();
      const { env, read } = recording(values);
      const deps = depsWith(env);
      planRecall(
        {
          hook_event_name: 'UserPromptSubmit',
          session_id: 's',
          cwd: repo,
          prompt: 'How do I deploy the osprey cluster?',
        },
        deps,
      );
      planStart({ hook_event_name: 'SessionStart', session_id: 's', cwd: repo, source: 'startup' }, deps);
      toolNamesFor(hostFromEnv(env), loadPluginConfig({ env, homeDir: home }).settings);
      const allowed = new Set([...moduleVariables(), ...HOST_VARIABLES]);
      const outside = [...read].filter((variable) => !allowed.has(variable) && !OPTION_VARIABLE.test(variable));
      expect(outside).toEqual([]);
      expect(read.has('OPENVIKING_URL')).toBe(true);
    });
  }
});
