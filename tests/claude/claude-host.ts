/**
 * Claude Code as a hook host, reduced to what differs from CodeBuddy for
 * this plugin: it substitutes ONLY `${CLAUDE_PLUGIN_ROOT}` in hook commands
 * (a `${CODEBUDDY_PLUGIN_ROOT}` reaches bash, which expands the unset
 * variable to ''), exports CLAUDE_PLUGIN_ROOT and CLAUDE_PROJECT_DIR (never
 * the CODEBUDDY_* names), reads matchers in its `claude` mode, and sends its
 * own payload shapes (below). Everything else (bash -c, stdin, timeout
 * kill, exit-code codec) is the shared runner of src/protocol.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { matcherQuery, matchesMatcher, runHook } from '../support/host-sim/protocol/index.js';
import type { CommandHook, HookOutput, HooksConfig, ShellExecutor } from '../support/host-sim/protocol/index.js';
import { runProcess } from '../support/spawn-hook.js';
import type { ProcessRun } from '../support/spawn-hook.js';

export interface ClaudeHostOptions {
  pluginRoot: string;
  home: string;
  workspace: string;
  env?: Record<string, string>;
}

export interface ClaudeHookRun {
  command: string;
  output: HookOutput;
  process: ProcessRun | undefined;
}

/** Claude Code's substitution: one placeholder only. */
export function substituteClaudePluginRoot(command: string, pluginRoot: string): string {
  return command.replace(/\$\{CLAUDE_PLUGIN_ROOT\}/g, pluginRoot);
}

export function createClaudeHost(options: ClaudeHostOptions) {
  const config = (
    JSON.parse(readFileSync(join(options.pluginRoot, 'hooks', 'hooks.json'), 'utf8')) as { hooks: HooksConfig }
  ).hooks;
  const env: Record<string, string> = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: options.home,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    CLAUDE_PLUGIN_ROOT: options.pluginRoot,
    CLAUDE_PROJECT_DIR: options.workspace,
    ...options.env,
  };
  /** The commands an event runs, after Claude Code's substitution. */
  const commandsFor = (event: string, payload: Record<string, unknown>): { hook: CommandHook; command: string }[] =>
    (config[event] ?? [])
      .filter((group) => matchesMatcher(group.matcher, matcherQuery(event, payload), 'claude'))
      .flatMap((group) => group.hooks)
      .filter((hook) => hook.type === 'command' && typeof hook.command === 'string')
      .map((hook) => ({ hook, command: substituteClaudePluginRoot(hook.command, options.pluginRoot) }));

  const fire = async (event: string, payload: Record<string, unknown>): Promise<ClaudeHookRun[]> =>
    Promise.all(
      commandsFor(event, payload).map(async ({ hook, command }) => {
        let raw: ProcessRun | undefined;
        const executor: ShellExecutor = async (request) => {
          raw = await runProcess('/bin/bash', ['-c', request.command], {
            stdin: request.stdin,
            env,
            cwd: options.workspace,
            timeoutMs: request.timeoutMs,
          });
          return raw;
        };
        const run = await runHook(
          executor,
          { ...hook, command },
          { stdin: JSON.stringify(payload), now: () => performance.now() },
        );
        return { command, output: run.output, process: raw };
      }),
    );
  return { config, env, commandsFor, fire };
}

/** `~/.claude/projects/<slug>/<session>.jsonl`, Claude Code's transcript path. */
export function claudeTranscriptPath(home: string, workspace: string, sessionId: string): string {
  return join(home, '.claude', 'projects', workspace.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
}

/** Claude Code 2.x stdin payloads (its hooks reference), key for key. */
export function claudePayloads(sessionId: string, transcriptPath: string, cwd: string) {
  const common = { session_id: sessionId, transcript_path: transcriptPath, cwd, permission_mode: 'default' };
  return {
    sessionStart: (source = 'startup') => ({ ...common, hook_event_name: 'SessionStart', source }),
    userPromptSubmit: (prompt: string) => ({ ...common, hook_event_name: 'UserPromptSubmit', prompt }),
    preToolUse: (toolName: string, toolInput: unknown) => ({
      ...common,
      hook_event_name: 'PreToolUse',
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: 'toolu_01',
    }),
    stop: () => ({ ...common, hook_event_name: 'Stop', stop_hook_active: false }),
  };
}
