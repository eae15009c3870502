/**
 * Every hooks.json command under every shell a host may use, with both
 * hosts' ways of filling in the plugin root (issue 15 §3, DESIGN D23):
 * - CodeBuddy rewrites the exact texts `${CODEBUDDY_PLUGIN_ROOT}` and
 *   `${CLAUDE_PLUGIN_ROOT}`, then runs the user's `$SHELL -c` (bash, dash,
 *   zsh, fish: any existing `$SHELL`);
 * - Claude Code rewrites nothing and runs `/bin/sh -c` whatever `$SHELL` is;
 *   the shell expands `${CLAUDE_PLUGIN_ROOT}` from its environment.
 * The plugin root holds a space and an apostrophe, and its scripts/hook.cjs
 * (the hook entry, D38) is a recorder, so each cell proves the command reached the plugin's own
 * dispatcher (directly, through the guard prefilter, or through the
 * detacher) with the payload intact. The prompt and start commands open with
 * the hooks module's hand-off test (protocol/handoff.ts, D31): each shell
 * must end them before anything starts (the start's: detached) when the
 * flag names the process that started the shell, under Claude Code only,
 * and run them in every other case: a flag and CLAUDE_PID inherited from
 * another process, and on CodeBuddy any environment, even one naming the
 * CLI's own pid. The guard command runs whatever flag stands (a module
 * unloaded with one set, FC13). A shell that is missing fails the suite: CI
 * installs zsh and fish (.ci/run).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.js';
import { createHostSim, createPayloads, loadHooksConfig } from '../support/host-sim/index.js';
import type { SimulatedHost } from '../support/host-sim/index.js';
import { HANDOFF_FLAGS, HOST_PROCESS_ID, type HandoffKind } from '../../src/protocol/handoff.js';
import { HOOK_ENTRY } from '../../src/protocol/entryFiles.js';
import { DOOR_PRINT } from '../../src/resident/door.js';
import { REPO_ROOT, runProcess } from '../support/spawn-hook.js';

/** The shells of the matrix: Debian's packages (dash is /bin/sh). */
const SHELLS = ['/bin/bash', '/bin/dash', '/usr/bin/zsh', '/usr/bin/fish'] as const;
const HOSTS: SimulatedHost[] = ['codebuddy', 'claude-code'];

const sandbox = mkdtempSync(join(tmpdir(), 'ov-any-shell-'));
const home = join(sandbox, 'home');
const workspace = join(sandbox, 'ws');
mkdirSync(workspace, { recursive: true });
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

/** A plugin in a root with a space and an apostrophe: the real hooks/, a recording dispatcher. */
const pluginRoot = join(sandbox, "John's plugins", 'openviking');
mkdirSync(join(pluginRoot, 'hooks'), { recursive: true });
mkdirSync(join(pluginRoot, 'scripts'), { recursive: true });
for (const file of ['hooks.json', 'guard-prefilter.sh', 'detach.sh', 'relay.sh'])
  copyFileSync(join(REPO_ROOT, 'hooks', file), join(pluginRoot, 'hooks', file));
writeFileSync(
  join(pluginRoot, HOOK_ENTRY),
  [
    "const { readFileSync, writeFileSync } = require('node:fs');",
    "const stdin = readFileSync(0, 'utf8');",
    'const event = JSON.parse(stdin).hook_event_name;',
    'writeFileSync(`${process.env.RECORD_DIR}/${event}.json`, JSON.stringify({ script: process.argv[1], args: process.argv.slice(2), stdin }));',
  ].join('\n'),
);

const EVENTS = Object.keys(loadHooksConfig(REPO_ROOT));
/** The events whose command detaches node (the record appears after the hook exited). */
const DETACHED = ['Stop', 'SubagentStart', 'SubagentStop', 'SessionEnd'];
/** The events whose command is the resident's door (D45): with no door open, node gets the environment's print. */
const THROUGH_DOOR = ['UserPromptSubmit', 'SessionStart'];

/** The dispatcher's arguments for `event`'s command when nothing steps aside. */
function expectedArgs(event: string, args: readonly string[]): string[] {
  if (DETACHED.includes(event)) return ['detached'];
  if (!THROUGH_DOOR.includes(event)) return [];
  expect(args[1], `${event}: the print`).toMatch(DOOR_PRINT);
  return ['door', args[1] ?? ''];
}

function payloadFor(event: string): Record<string, unknown> {
  const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
  switch (event) {
    case 'SessionStart':
      return p.sessionStart();
    case 'UserPromptSubmit':
      return p.userPromptSubmit('it\'s "quoted" $HOME `id` ✓');
    case 'PreToolUse':
      // Reaches node only with a viking: URI in it (the prefilter passes everything else).
      return p.preToolUse('Read', { file_path: 'viking://user/memories/x.md' });
    case 'Stop':
      return p.stop();
    case 'SubagentStart':
      return p.subagentStart('agent-1');
    case 'SubagentStop':
      return p.subagentStop('agent-1');
    case 'PreCompact':
      return p.preCompact();
    case 'SessionEnd':
      return p.sessionEnd();
    default:
      throw new Error(`no payload for ${event}`);
  }
}

interface Recorded {
  script: string;
  args: string[];
  stdin: string;
}

describe('every hooks.json command, every shell, both hosts', () => {
  it('the matrix shells are installed (CI: .ci/run installs zsh and fish)', () => {
    for (const shell of SHELLS)
      expect(existsSync(shell), `${shell} is missing: apt-get install -y zsh fish`).toBe(true);
    expect(EVENTS.length).toBe(8);
  });

  for (const host of HOSTS) {
    for (const shell of SHELLS) {
      it(`${host}, SHELL=${shell}: each event reaches the plugin's dispatcher with its payload`, async () => {
        const sim = createHostSim({ pluginRoot, home, workspace, shell, host });
        for (const event of EVENTS) {
          const recordDir = mkdtempSync(join(sandbox, 'rec-'));
          const payload = payloadFor(event);
          const result = await sim.fire(event, payload, { env: { RECORD_DIR: recordDir } });
          expect(result.hooks, event).toHaveLength(1);
          const fired = result.hooks[0];
          expect(fired?.shell, event).toBe(host === 'claude-code' ? '/bin/sh' : shell);
          expect(fired?.process?.exitCode, `${event}: ${fired?.process?.stderr}`).toBe(0);
          expect(fired?.process?.stderr, event).toBe('');
          const file = join(recordDir, `${event}.json`);
          const recorded = await waitFor(() => readRecord(file), { timeoutMs: 10_000, what: `${event}'s record` });
          expect(recorded.script, event).toBe(join(pluginRoot, HOOK_ENTRY));
          expect(recorded.args, event).toEqual(expectedArgs(event, recorded.args));
          expect(JSON.parse(recorded.stdin), event).toEqual(payload);
        }
      }, 60_000);
    }
  }

  // The hooks module's hand-off (D30, D31): the prompt command steps aside before node starts, the start's runs its
  // dispatcher detached (the housekeeping, off the host's clock); only for the process that started the shell.
  const HANDED_OFF: Array<[string, HandoffKind]> = [
    ['UserPromptSubmit', 'prompt'],
    ['SessionStart', 'start'],
  ];
  /** This process: the one that starts each hook's shell here, as the real hosts start theirs (`$PPID`). */
  const HOST_PID = String(process.pid);
  const STEP_ASIDE_CASES: Array<{
    name: string;
    env: (flag: string) => Record<string, string>;
    stepsAsideOn: SimulatedHost[];
  }> = [
    {
      name: 'flag = the process that started the shell',
      env: (flag) => ({ [flag]: HOST_PID }),
      stepsAsideOn: ['claude-code'],
    },
    {
      name: 'flag and CLAUDE_PID = the process that started the shell (a CLI started with both naming itself)',
      env: (flag) => ({ [flag]: HOST_PID, [HOST_PROCESS_ID]: HOST_PID }),
      stepsAsideOn: ['claude-code'],
    },
    {
      name: 'flag and CLAUDE_PID inherited from another process',
      env: (flag) => ({ [flag]: '4242', [HOST_PROCESS_ID]: '4242' }),
      stepsAsideOn: [],
    },
    { name: 'empty flag', env: (flag) => ({ [flag]: '' }), stepsAsideOn: [] },
    { name: 'no flag', env: () => ({ [HOST_PROCESS_ID]: HOST_PID }), stepsAsideOn: [] },
  ];
  for (const host of HOSTS) {
    for (const shell of SHELLS) {
      it(`${host}, SHELL=${shell}: the prompt and start commands step aside only for the flag of the process that started them${host === 'codebuddy' ? ' (never on CodeBuddy)' : ''}`, async () => {
        const sim = createHostSim({ pluginRoot, home, workspace, shell, host });
        for (const [event, kind] of HANDED_OFF) {
          for (const { name, env, stepsAsideOn } of STEP_ASIDE_CASES) {
            const stepsAside = stepsAsideOn.includes(host);
            const recordDir = mkdtempSync(join(sandbox, 'rec-'));
            const payload = payloadFor(event);
            const result = await sim.fire(event, payload, {
              env: { RECORD_DIR: recordDir, ...env(HANDOFF_FLAGS[kind]) },
            });
            const fired = result.hooks[0];
            expect(fired?.process?.exitCode, `${event}, ${name}: ${fired?.process?.stderr}`).toBe(0);
            expect(fired?.process?.stderr, `${event}, ${name}`).toBe('');
            const file = join(recordDir, `${event}.json`);
            const record = () => readRecord(file);
            if (stepsAside && kind !== 'start')
              expect(existsSync(file), `${event}, ${name}: the dispatcher ran`).toBe(false);
            else {
              const recorded = await waitFor(record, {
                timeoutMs: 10_000,
                what: `${event}, ${name}: the dispatcher's record`,
              });
              expect(recorded.args, `${event}, ${name}`).toEqual(
                stepsAside ? ['detached'] : expectedArgs(event, recorded.args),
              );
              expect(JSON.parse(recorded.stdin), `${event}, ${name}`).toEqual(payload);
            }
          }
        }
      }, 60_000);
    }
  }

  // No hand-off for the guard (D31): a guard flag left standing (a module unloaded inside its window, FC13), even one
  // naming the shell's own parent, never keeps a viking:// call from the prefilter and the dispatcher.
  for (const host of HOSTS) {
    it(`${host}: a standing OPENVIKING_MODULE_GUARD naming the host process does not silence the guard`, async () => {
      const sim = createHostSim({ pluginRoot, home, workspace, shell: '/bin/bash', host });
      const recordDir = mkdtempSync(join(sandbox, 'rec-'));
      const payload = payloadFor('PreToolUse');
      const result = await sim.fire('PreToolUse', payload, {
        env: { RECORD_DIR: recordDir, OPENVIKING_MODULE_GUARD: HOST_PID, [HOST_PROCESS_ID]: HOST_PID },
      });
      expect(result.hooks[0]?.process?.exitCode).toBe(0);
      const file = join(recordDir, 'PreToolUse.json');
      const recorded = await waitFor(
        () => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Recorded) : undefined),
        { timeoutMs: 10_000, what: "the guard's dispatcher record" },
      );
      expect(JSON.parse(recorded.stdin)).toEqual(payload);
    }, 30_000);
  }

  // Claude Code always runs /bin/sh, but the form must not depend on dash either:
  // the unsubstituted command, expanded from the environment by each POSIX shell.
  for (const shell of ['/bin/bash', '/bin/dash', '/usr/bin/zsh']) {
    it(`the unsubstituted commands expand \${CLAUDE_PLUGIN_ROOT} from the environment under ${shell}`, async () => {
      const config = loadHooksConfig(REPO_ROOT);
      for (const event of EVENTS) {
        const command = config[event]?.[0]?.hooks[0]?.command ?? '';
        const echoed = command.replace(/(^|; )(node|sh) "/, '$1printf %s "');
        const run = await runProcess(shell, ['-c', echoed], {
          env: { PATH: '/usr/bin:/bin', CLAUDE_PLUGIN_ROOT: pluginRoot },
          cwd: workspace,
          timeoutMs: 5_000,
        });
        expect(run.stdout, event).toMatch(
          new RegExp(
            `^${pluginRoot.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(scripts/hook\\.cjs|hooks/(guard-prefilter|detach|relay)\\.sh)$`,
          ),
        );
      }
    });
  }
});

/** The recording dispatcher's record once it is whole (a detached one may still be writing it): undefined before. */
function readRecord(file: string): Recorded | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Recorded;
  } catch {
    return undefined;
  }
}
