/**
 * A CodeBuddy host in a box: runs the plugin's REAL hooks/hooks.json the way
 * CodeBuddy 2.117 does (observed in codebuddy-host README §2–§3 and read in
 * its bundle), so a test can fire an event and see exactly what the host
 * would get back. `host: 'claude-code'` runs it the way Claude Code 2.1.328
 * does instead (codebuddy-host README §9): no text substitution,
 * `/bin/sh -c` whatever `$SHELL` is, its own variables, its matcher reading.
 *
 * What it reproduces:
 * - matcher groups per event, read as unanchored regexes (`codebuddy` mode;
 *   `claude` mode available), against the host's match value (tool name,
 *   `source`, `reason`, `trigger`; none for other events = match all);
 * - `${CODEBUDDY_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_ROOT}` substituted in the
 *   command; env CODEBUDDY_PLUGIN_ROOT, CLAUDE_PLUGIN_ROOT,
 *   CODEBUDDY_PROJECT_DIR, CLAUDE_PROJECT_DIR (and CODEBUDDY_PLUGIN_DATA /
 *   CLAUDE_PLUGIN_DATA only when `pluginData` is given: newer hosts set it,
 *   2.117 never does);
 * - `$SHELL -c <command>` (fish and zsh included: the 2.117 bundle's
 *   `getShellConfiguration` takes any existing `$SHELL`) with cwd = the workspace, the payload as
 *   `JSON.stringify` on stdin (no trailing newline), all matched hooks in
 *   parallel, SIGTERM at the hook's `timeout` (SIGKILL 1 s later);
 * - the exit-code/stdout codec and the merge of all outputs (including
 *   CodeBuddy's last-registered-wins `hostAdditionalContext`).
 *
 * The environment is NOT inherited from the test process (an OPENVIKING_*
 * variable of the developer's shell must not leak into a test): it is PATH
 * (with this node first), HOME = `home`, SHELL, LANG, the plugin variables
 * above, then `env` from the options, then `env` from `fire`.
 *
 * Example:
 * ```ts
 * const sim = createHostSim({ pluginRoot: REPO_ROOT, home, workspace });
 * const p = createPayloads({ workspace, configDir: join(home, '.codebuddy') });
 * const result = await sim.fire('PreToolUse', p.preToolUse('Read', { file_path: 'viking://x' }));
 * result.outputs[0]?.stdout; // the exact JSON the plugin printed
 * result.merged.decision;    // 'deny'
 * ```
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hookTimeoutMs, matcherQuery, matchesMatcher, mergeHookOutputs, runHook } from './protocol/index.js';
import type {
  CommandHook,
  HookOutput,
  HooksConfig,
  MatcherMode,
  MergedHookOutcome,
  ShellExecutor,
} from './protocol/index.js';
import { runProcess } from '../spawn-hook.js';
import type { ProcessRun } from '../spawn-hook.js';

export interface HostSimOptions {
  /** The plugin directory; its hooks/hooks.json is loaded once, at creation. */
  pluginRoot: string;
  /** HOME of the hook processes (a mkdtemp sandbox). */
  home: string;
  /** cwd of the hook processes and the project dir variables. */
  workspace: string;
  /** Extra environment for every hook (e.g. OPENVIKING_URL of a test server). */
  env?: Record<string, string>;
  /** Set to mimic a newer host that exports CODEBUDDY_PLUGIN_DATA / CLAUDE_PLUGIN_DATA. */
  pluginData?: string;
  /**
   * Let prompt hooks use (and start) the resident helper, as shipped
   * (DESIGN D16). Off by default here (`OPENVIKING_RESIDENT=off`), so a
   * suite about something else leaves no long-lived process behind; the
   * prompt, start and resident suites turn it on.
   */
  resident?: boolean;
  /** Default `codebuddy` (always-regex matchers). */
  matcherMode?: MatcherMode;
  /** Default `/bin/bash`, the SHELL CodeBuddy ran hooks with in every sample. Claude Code exports it but runs `/bin/sh`. */
  shell?: string;
  /** Default `codebuddy`. */
  host?: SimulatedHost;
  /**
   * `2.163-headless`: CodeBuddy 2.163 under `-p`/stream-json (seed 000 §3):
   * UserPromptSubmit, SessionEnd and the sub-agent events never fire (`fire`
   * answers `notFired` without running anything), and CODEBUDDY_PLUGIN_DATA /
   * CLAUDE_PLUGIN_DATA are `<home>/.codebuddy/plugins/data/openviking-inline`,
   * as 2.163 sets them under `--plugin-dir` (seed 000 §2; `pluginData`
   * overrides). Default `2.117`: every event fires, no plugin data variable.
   */
  profile?: HostProfile;
}

export type HostProfile = '2.117' | '2.163-headless';

/** Events 2.163 emits only in the interactive TUI (seed 000 §3). PreCompact may never fire either; tests decide. */
export const HEADLESS_2163_SILENT_EVENTS: ReadonlySet<string> = new Set([
  'UserPromptSubmit',
  'SessionEnd',
  'SubagentStart',
  'SubagentStop',
]);

/** The plugin's data dir as 2.163 names it under `--plugin-dir`: `~/.codebuddy/plugins/data/<plugin>-inline`. */
export function inlinePluginDataDir(home: string, pluginName = 'openviking'): string {
  return join(home, '.codebuddy', 'plugins', 'data', `${pluginName}-inline`);
}

/**
 * How the host turns a hooks.json command into a process:
 * - `codebuddy`: rewrites the exact texts `${CODEBUDDY_PLUGIN_ROOT}` and
 *   `${CLAUDE_PLUGIN_ROOT}`, then runs `$SHELL -c`; exports both root
 *   variables and both project variables;
 * - `claude-code`: rewrites nothing and runs `/bin/sh -c` from its own
 *   process, which expands `${CLAUDE_PLUGIN_ROOT}` from the environment;
 *   exports CLAUDE_PLUGIN_ROOT, CLAUDE_PROJECT_DIR, CLAUDECODE=1,
 *   CLAUDE_CODE_ENTRYPOINT and CLAUDE_PID (its own pid: here this process,
 *   the shell's parent, as `$PPID` reads it, FC21) and never a CODEBUDDY_*
 *   variable; reads matchers in `claude` mode.
 */
export type SimulatedHost = 'codebuddy' | 'claude-code';

/** The shell Claude Code runs every hook command with (§9: dash on Debian). */
export const CLAUDE_CODE_SHELL = '/bin/sh';

export interface FireOptions {
  /** Overrides the match value (by default taken from the payload like the host does). */
  matchQuery?: string;
  /** Raw stdin instead of `JSON.stringify(payload)`: for malformed or binary input. */
  stdin?: string | Uint8Array;
  /** Extra environment for this event only. */
  env?: Record<string, string>;
}

/** One hook the event ran. */
export interface FiredHook {
  matcher: string | undefined;
  /** The command as the shell got it (after the host's substitution, if any). */
  command: string;
  /** The program that ran it with `-c`. */
  shell: string;
  timeoutMs: number;
  /** The host's reading of the run. */
  output: HookOutput;
  /** The raw process result (undefined only if the executor itself failed). */
  process: ProcessRun | undefined;
  durationMs: number;
}

export interface FireResult {
  event: string;
  /** The hooks that matched, in registration order. */
  hooks: FiredHook[];
  /** `hooks[i].output`, for convenience. */
  outputs: HookOutput[];
  merged: MergedHookOutcome;
  /** Wall time of the whole event (hooks run in parallel). */
  durationMs: number;
  /** True if any hook was killed at its timeout (CodeBuddy then BLOCKS). */
  timedOut: boolean;
  /** The host profile never emits this event (nothing ran). */
  notFired?: true;
}

export interface HostSim {
  readonly config: HooksConfig;
  /** The base environment every hook gets. */
  readonly env: Readonly<Record<string, string>>;
  fire(event: string, payload: Record<string, unknown>, options?: FireOptions): Promise<FireResult>;
}

/** Reads `<pluginRoot>/hooks/hooks.json` and returns its `hooks` object. */
export function loadHooksConfig(pluginRoot: string): HooksConfig {
  const parsed = JSON.parse(readFileSync(join(pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as { hooks?: HooksConfig };
  return parsed.hooks ?? {};
}

/** The host's substitution of the plugin-root placeholders (bundle: two global replaces). */
export function substitutePluginRoot(command: string, pluginRoot: string): string {
  return command.replace(/\$\{CODEBUDDY_PLUGIN_ROOT\}/g, pluginRoot).replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, pluginRoot);
}

/** The variables the host adds for a plugin hook (before the test's own `env`). */
function hostVariables(host: SimulatedHost, options: HostSimOptions): Record<string, string> {
  if (host === 'claude-code') {
    return {
      CLAUDE_PLUGIN_ROOT: options.pluginRoot,
      CLAUDE_PROJECT_DIR: options.workspace,
      CLAUDECODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'sdk-cli',
      CLAUDE_PID: String(process.pid),
      ...(options.pluginData !== undefined ? { CLAUDE_PLUGIN_DATA: options.pluginData } : {}),
    };
  }
  return {
    CODEBUDDY_PLUGIN_ROOT: options.pluginRoot,
    CLAUDE_PLUGIN_ROOT: options.pluginRoot,
    CODEBUDDY_PROJECT_DIR: options.workspace,
    CLAUDE_PROJECT_DIR: options.workspace,
    ...(options.pluginData !== undefined
      ? { CODEBUDDY_PLUGIN_DATA: options.pluginData, CLAUDE_PLUGIN_DATA: options.pluginData }
      : {}),
  };
}

export function createHostSim(options: HostSimOptions): HostSim {
  const config = loadHooksConfig(options.pluginRoot);
  const host = options.host ?? 'codebuddy';
  const userShell = options.shell ?? '/bin/bash';
  const shell = host === 'claude-code' ? CLAUDE_CODE_SHELL : userShell;
  const mode = options.matcherMode ?? (host === 'claude-code' ? 'claude' : 'codebuddy');
  const headless2163 = options.profile === '2.163-headless';
  const withData =
    headless2163 && options.pluginData === undefined
      ? { ...options, pluginData: inlinePluginDataDir(options.home) }
      : options;
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: options.home,
    SHELL: userShell,
    LANG: 'C.UTF-8',
    ...hostVariables(host, withData),
    ...(options.resident === true ? {} : { OPENVIKING_RESIDENT: 'off' }),
    ...options.env,
  };

  const fire = async (
    event: string,
    payload: Record<string, unknown>,
    fireOptions: FireOptions = {},
  ): Promise<FireResult> => {
    const started = performance.now();
    if (headless2163 && HEADLESS_2163_SILENT_EVENTS.has(event)) {
      return {
        event,
        hooks: [],
        outputs: [],
        merged: mergeHookOutputs([]),
        durationMs: 0,
        timedOut: false,
        notFired: true,
      };
    }
    const query = fireOptions.matchQuery ?? matcherQuery(event, payload);
    const selected = (config[event] ?? [])
      .filter((group) => matchesMatcher(group.matcher, query, mode))
      .flatMap((group) => group.hooks.filter(isCommandHook).map((hook) => ({ matcher: group.matcher, hook })));
    const stdin = fireOptions.stdin ?? JSON.stringify(payload);
    const hookEnv = { ...env, ...fireOptions.env };
    const hooks = await Promise.all(
      selected.map(async ({ matcher, hook }): Promise<FiredHook> => {
        const command = host === 'claude-code' ? hook.command : substitutePluginRoot(hook.command, options.pluginRoot);
        let raw: ProcessRun | undefined;
        const executor: ShellExecutor = async (request) => {
          raw = await runProcess(shell, ['-c', request.command], {
            stdin: request.stdin,
            env: hookEnv,
            cwd: options.workspace,
            timeoutMs: request.timeoutMs,
          });
          return raw;
        };
        const run = await runHook(executor, { ...hook, command }, { stdin, now: () => performance.now() });
        return {
          matcher,
          command,
          shell,
          timeoutMs: hookTimeoutMs(hook),
          output: run.output,
          process: raw,
          durationMs: run.durationMs,
        };
      }),
    );
    const outputs = hooks.map((h) => h.output);
    return {
      event,
      hooks,
      outputs,
      merged: mergeHookOutputs(outputs),
      durationMs: performance.now() - started,
      timedOut: outputs.some((o) => o.timedOut === true),
    };
  };
  return { config, env, fire };
}

function isCommandHook(hook: CommandHook): boolean {
  return hook.type === 'command' && typeof hook.command === 'string';
}

export { createPayloads } from './payloads.js';
export type { HostVersion, PayloadContext, Payloads } from './payloads.js';
