/**
 * The interactive Claude Code TUI under tmux (codebuddy-host README §9),
 * for what headless runs never show: what a
 * hooks module draws, its slash command, `/compact` (PreCompact), `/exit`
 * (SessionEnd) and `--continue`.
 *
 * Each sandbox gets its own tmux server on a socket inside the sandbox (no
 * other tmux session on the machine is seen or touched); `dispose` kills that
 * server only. The CLI starts from a launch script with the sandbox's
 * minimal environment, onboarding, workspace trust and the API key already
 * accepted (`~/.claude.json`), and `--allowedTools` for the tools a scenario
 * calls (2.1.332's TUI starts in auto mode, which would otherwise ask).
 * Keys go in with `send-keys -l`, the screen comes back with `capture-pane`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClaudeSandbox } from './claude-cli.js';
import { waitFor } from '../../support/wait.js';

export interface TuiOptions {
  pluginDirs: string[];
  env?: Record<string, string | undefined>;
  allowedTools?: string[];
  args?: string[];
  /** Where the CLI writes its debug log. */
  debugFile: string;
}

export interface Tui {
  /** Types `text` and presses Enter. */
  submit(text: string): void;
  /** The visible screen (and the scrollback above it), as text. */
  screen(): string;
  /** Waits until the screen matches `pattern`; throws with the screen otherwise. */
  waitForScreen(pattern: RegExp, what: string, timeoutMs?: number): Promise<string>;
  /** Waits until the CLI exited (its tmux session closes with it). */
  waitForExit(timeoutMs?: number): Promise<void>;
  isRunning(): boolean;
}

const WIDTH = 160;
const HEIGHT = 45;

/** `~/.claude.json` as a person who finished onboarding, trusts the workspace and approved the key has it. */
export function prepareTuiHome(sandbox: ClaudeSandbox): void {
  const key = sandbox.env().ANTHROPIC_API_KEY ?? '';
  const state = {
    hasCompletedOnboarding: true,
    theme: 'dark',
    numStartups: 5,
    // The startup notice that auto mode is the default (both pinned versions, shown once): it holds the composer.
    hasSeenAutoDefaultNotice: true,
    customApiKeyResponses: { approved: [key, key.slice(-20)], rejected: [] },
    projects: { [sandbox.workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  writeFileSync(join(sandbox.home, '.claude.json'), `${JSON.stringify(state)}\n`, { mode: 0o600 });
  // The classic renderer: a fresh install may get the fullscreen one, which drops what is typed before its switch.
  mkdirSync(sandbox.configDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(sandbox.configDir, 'settings.json'), `${JSON.stringify({ tui: 'default' })}\n`, { mode: 0o600 });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The sandbox's tmux server: every call names its socket. */
function tmux(sandbox: ClaudeSandbox, args: string[]): string {
  return execFileSync('tmux', ['-S', join(sandbox.root, 'tmux.sock'), ...args], { encoding: 'utf8', timeout: 10_000 });
}

/** Starts `claude` interactively in a new tmux session `name` of the sandbox's server. */
export function startTui(sandbox: ClaudeSandbox, name: string, options: TuiOptions): Tui {
  const env = { ...sandbox.env(options.env), TERM: 'xterm-256color' };
  const args = [
    ...options.pluginDirs.flatMap((dir) => ['--plugin-dir', dir]),
    '--debug-file',
    options.debugFile,
    ...(options.allowedTools?.length ? ['--allowedTools', options.allowedTools.join(',')] : []),
    ...(options.args ?? []),
  ];
  const launcher = join(sandbox.root, `tui-${name}.sh`);
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${shellQuote(value)}`);
  writeFileSync(
    launcher,
    `#!/bin/sh\ncd ${shellQuote(sandbox.workspace)} || exit 1\nexec env -i ${assignments.join(' ')} ${shellQuote(sandbox.bin)} ${args.map(shellQuote).join(' ')}\n`,
  );
  chmodSync(launcher, 0o700);
  tmux(sandbox, ['new-session', '-d', '-s', name, '-x', String(WIDTH), '-y', String(HEIGHT), launcher]);
  const isRunning = () => {
    try {
      tmux(sandbox, ['has-session', '-t', name]);
      return true;
    } catch {
      return false;
    }
  };
  const screen = () => (isRunning() ? tmux(sandbox, ['capture-pane', '-t', name, '-p', '-S', '-200']) : '');
  return {
    submit(text) {
      // A TUI still starting (a loaded machine) may drop keys typed before it reads them: type again only while
      // the composer shows none of the text after 15 s (retyping over text it took, or sending C-u, doubled the
      // prompt: C-u does not clear the composer).
      const head = text.slice(0, 12);
      const composer = () =>
        screen()
          .split('\n')
          .findLast((line) => line.includes('❯')) ?? '';
      for (let attempt = 0; attempt < 3; attempt++) {
        tmux(sandbox, ['send-keys', '-t', name, '-l', text]);
        const deadline = Date.now() + 15_000;
        while (Date.now() < deadline && !composer().includes(head)) execFileSync('sleep', ['0.2']);
        if (composer().includes(head)) break;
      }
      // The composer takes the pasted text first; Enter on its own submits it.
      execFileSync('sleep', ['0.3']);
      tmux(sandbox, ['send-keys', '-t', name, 'Enter']);
    },
    screen,
    async waitForScreen(pattern, what, timeoutMs = 30_000) {
      try {
        return await waitFor(
          () => {
            const text = screen();
            return pattern.test(text) ? text : undefined;
          },
          { timeoutMs, what },
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}\nscreen:\n${screen()}`, { cause: error });
      }
    },
    async waitForExit(timeoutMs = 30_000) {
      await waitFor(() => (isRunning() ? undefined : true), { timeoutMs, what: `the ${name} TUI to exit` });
    },
    isRunning,
  };
}

/** Kills the sandbox's own tmux server (and with it any TUI still running). */
export function stopTuis(sandbox: ClaudeSandbox): void {
  if (!existsSync(join(sandbox.root, 'tmux.sock'))) return;
  try {
    tmux(sandbox, ['kill-server']);
  } catch {
    // already gone
  }
}
