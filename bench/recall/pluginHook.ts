/**
 * A plugin build's recall, run as the host runs it: for every prompt, the
 * UserPromptSubmit command of that build's hooks/hooks.json through
 * `$SHELL -c` (so `node <root>/scripts/hook.cjs`, and the resident helper it
 * relays to, exactly as CodeBuddy starts them), with a CodeBuddy 2.117
 * payload on stdin, in a clone of the prompt's project (its `origin` names
 * the project's peer, docs/projects.md) and a sandboxed HOME shared by the
 * whole run. Each prompt is a session of its own (a fresh session id, so the
 * server's per-session dedup never hides a memory an earlier prompt got);
 * its `recent` turns are that session's transcript, named by
 * `transcript_path`. What the model would see is the answer's
 * `additionalContext`; the memories in it are read back by their
 * `<memory uri=…>` elements, in order.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { turnRecords, appendTranscript } from '../../tests/capture/support/world.js';
import { stopResidents } from '../../tests/support/detached.js';
import { createPayloads, loadHooksConfig, substitutePluginRoot } from '../../tests/support/host-sim/index.js';
import { runProcess } from '../../tests/support/spawn-hook.js';
import type { Project, Prompt } from './corpus/corpus.js';

export const HOST_SHELL = '/bin/bash';

export interface Injection {
  /** The memories' URIs in the order the block gives them. */
  uris: string[];
  /** The whole injected text (0 when nothing). */
  chars: number;
  ms: number;
  /** Why nothing came, when the hook said so (a failure's stderr, a bad answer). */
  problem?: string;
}

export interface RecallSystem {
  name: string;
  /** Runs once before the prompts (not measured): e.g. start the resident helper. */
  warmUp(project: string): Promise<void>;
  recall(prompt: Prompt): Promise<Injection>;
  dispose(): Promise<void>;
}

export interface PluginHookOptions {
  name: string;
  /** The built plugin: a folder holding hooks/hooks.json and scripts/hook.cjs. */
  pluginRoot: string;
  /** The run's own folder (HOME and the workspaces). */
  workDir: string;
  serverUrl: string;
  user: string;
  projects: readonly Project[];
  env?: Record<string, string>;
}

const MEMORY_URI = /^<memory uri="([^"]+)"/gm;

/** The memories a block names, in order (the plugin's own block and the server's rendered one share the element). */
export function urisInBlock(text: string): string[] {
  return [...text.matchAll(MEMORY_URI)].map((match) => match[1]!.replace(/&amp;/g, '&').replace(/&quot;/g, '"'));
}

export function pluginHookSystem(options: PluginHookOptions): RecallSystem {
  const home = join(options.workDir, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const workspaces = new Map<string, string>();
  for (const project of options.projects) {
    const workspace = join(options.workDir, 'ws', project.name);
    mkdirSync(workspace, { recursive: true });
    execFileSync('git', ['init', '-q', workspace]);
    execFileSync('git', ['-C', workspace, 'remote', 'add', 'origin', project.origin]);
    workspaces.set(project.name, workspace);
  }
  const hooks = loadHooksConfig(options.pluginRoot);
  const command = hooks.UserPromptSubmit?.[0]?.hooks[0]?.command;
  if (command === undefined) throw new Error(`${options.pluginRoot}/hooks/hooks.json has no UserPromptSubmit hook`);
  const shellCommand = substitutePluginRoot(command, options.pluginRoot);
  const configDir = join(home, '.codebuddy');
  const run = async (project: string, text: string, recent: Prompt['recent'] = []): Promise<Injection> => {
    const workspace = workspaces.get(project)!;
    const payloads = createPayloads({ workspace, configDir });
    writeRecent(payloads.transcriptPath, payloads.sessionId, workspace, recent);
    const env: Record<string, string> = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      SHELL: HOST_SHELL,
      LANG: 'C.UTF-8',
      CODEBUDDY_PLUGIN_ROOT: options.pluginRoot,
      CLAUDE_PLUGIN_ROOT: options.pluginRoot,
      CODEBUDDY_PROJECT_DIR: workspace,
      CLAUDE_PROJECT_DIR: workspace,
      OPENVIKING_URL: options.serverUrl,
      OPENVIKING_USER: options.user,
      NO_PROXY: '*',
      ...options.env,
    };
    const result = await runProcess(HOST_SHELL, ['-c', shellCommand], {
      stdin: JSON.stringify(payloads.userPromptSubmit(text, recent.length > 0 ? 2 : 1)),
      env,
      cwd: workspace,
      timeoutMs: 15_000,
    });
    return readAnswer(result.stdout, result.stderr, result.durationMs, result.exitCode);
  };
  return {
    name: options.name,
    warmUp: async (project) => {
      await run(project, 'warming up the helper before the measured prompts');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    },
    recall: (prompt) => run(prompt.project, prompt.prompt, prompt.recent),
    dispose: () => stopResidents(home),
  };
}

/** The prompt's earlier turns as CodeBuddy 2.117 writes its transcript: one record per message. */
function writeRecent(path: string, sessionId: string, cwd: string, recent: NonNullable<Prompt['recent']>): void {
  if (recent.length === 0) return;
  const records = recent.map((turn) => turnRecords(sessionId, cwd, turn.text, turn.text)[turn.role === 'user' ? 0 : 1]);
  appendTranscript(path, records);
}

function readAnswer(stdout: string, stderr: string, ms: number, exitCode: number | null): Injection {
  const trimmed = stdout.trim();
  if (trimmed === '') return { uris: [], chars: 0, ms, ...(exitCode !== 0 ? { problem: stderr.slice(-300) } : {}) };
  try {
    const answer = JSON.parse(trimmed) as { hookSpecificOutput?: { additionalContext?: unknown } };
    const context = answer.hookSpecificOutput?.additionalContext;
    const text = typeof context === 'string' ? context : '';
    return { uris: urisInBlock(text), chars: text.length, ms };
  } catch {
    return { uris: [], chars: 0, ms, problem: `not JSON: ${trimmed.slice(0, 200)}` };
  }
}
