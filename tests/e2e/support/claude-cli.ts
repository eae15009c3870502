/**
 * Drives the real Claude Code CLI (2.1.328, the pinned devDependency
 * `@anthropic-ai/claude-code`) headless against the scripted Anthropic model:
 * a throwaway HOME, the minimal environment of codebuddy-host README §9, and
 * the native binary run straight from its platform package
 * (`@anthropic-ai/claude-code-<os>-<arch>`), so neither the wrapper's
 * postinstall (denied in package.json `allowScripts`) nor the user's PATH is
 * involved. Runs reuse the CodeBuddy harness's process-group handling.
 *
 * @module
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driveStreamSession, settle, STREAM_JSON_ARGS, type CliRun, type StreamSession } from './cli.js';
import { spawnInGroup } from './processes.js';
import { REPO_ROOT } from './repo.js';
import { concatenateFiles, filesUnder, minimalCliEnv, sandboxMembers } from './sandbox.js';

/** The version the suite pins (package.json devDependencies). */
export const CLAUDE_CODE_VERSION = '2.1.328';

/** The platform package holding the native binary, e.g. `@anthropic-ai/claude-code-linux-x64`. */
export function claudePlatformPackage(): string {
  const musl = process.platform === 'linux' && !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  const platform = process.platform === 'win32' ? 'win32' : process.platform;
  return `@anthropic-ai/claude-code-${platform}-${process.arch}${musl ? '-musl' : ''}`;
}

/** The native `claude` binary inside node_modules (not necessarily present: see claudeBinaryProblem). */
export const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', ...claudePlatformPackage().split('/'), process.platform === 'win32' ? 'claude.exe' : 'claude');

export interface ClaudeSandbox {
  root: string;
  home: string;
  /** `~/.claude`: settings, plugins/, projects/ transcripts, debug/ logs. */
  configDir: string;
  workspace: string;
  env(extra?: Record<string, string | undefined>): Record<string, string>;
  /** Transcript files under `~/.claude/projects/`. */
  transcripts(): string[];
  /** Concatenated `--debug` logs (`~/.claude/debug/*.txt`). */
  debugLogs(): string;
  livePids(): number[];
  dispose(): void;
}

/** A throwaway HOME and workspace; the model is reached through ANTHROPIC_BASE_URL. */
export function createClaudeSandbox(options: { modelBaseUrl: string; label?: string }): ClaudeSandbox {
  const root = mkdtempSync(join(tmpdir(), `ov-claude-${options.label ?? 'run'}-`));
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  const configDir = join(home, '.claude');
  // Claude Code keeps task outputs under os.tmpdir() (`claude-<uid>/…`): inside the sandbox, they go with it.
  const tmp = join(root, 'tmp');
  for (const dir of [home, workspace, tmp]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const baseEnv: Record<string, string> = {
    ...minimalCliEnv(home, root),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ANTHROPIC_BASE_URL: options.modelBaseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-fake-not-a-secret',
    TMPDIR: tmp,
  };
  return {
    ...sandboxMembers({ root, home, configDir, workspace, baseEnv }),
    debugLogs: () => concatenateFiles(filesUnder(join(configDir, 'debug'), (path) => path.endsWith('.txt'))),
  };
}

export interface ClaudeRunOptions {
  /** Directories passed as `--plugin-dir` (none: only installed plugins load). */
  pluginDirs: string[];
  env?: Record<string, string | undefined>;
  /** Tools allowed without asking (root cannot bypass permissions without IS_SANDBOX=1). */
  allowedTools?: string[];
  args?: string[];
  timeoutMs?: number;
}

function claudeArgs(modeArgs: string[], options: ClaudeRunOptions): string[] {
  const plugins = options.pluginDirs.flatMap((dir) => ['--plugin-dir', dir]);
  const allowed = options.allowedTools?.length ? ['--allowedTools', options.allowedTools.join(',')] : [];
  return [...plugins, ...modeArgs, '--debug', ...allowed, ...(options.args ?? [])];
}

/** One `claude -p '<prompt>'` run; resolves when the CLI exits (or is killed at the timeout). */
export async function runClaude(sandbox: ClaudeSandbox, prompt: string, options: ClaudeRunOptions): Promise<CliRun> {
  const started = Date.now();
  const proc = spawnInGroup(CLAUDE_BIN, claudeArgs(['-p', prompt], options), { cwd: sandbox.workspace, env: sandbox.env(options.env), stdin: 'ignore' });
  const { exit, timedOut, durationMs } = await settle(proc, options.timeoutMs ?? 60_000, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}

/** A stream-json session; `send` resolves with each turn's `result` line. */
export function startClaudeStreamSession(sandbox: ClaudeSandbox, options: ClaudeRunOptions): StreamSession {
  const started = Date.now();
  const proc = spawnInGroup(CLAUDE_BIN, claudeArgs(STREAM_JSON_ARGS, options), { cwd: sandbox.workspace, env: sandbox.env(options.env), stdin: 'pipe' });
  return driveStreamSession(proc, started);
}

/** `claude plugin <args…>` (marketplace add, install) in the sandbox's HOME. */
export async function runClaudePluginCommand(sandbox: ClaudeSandbox, args: string[], timeoutMs = 60_000): Promise<CliRun> {
  const started = Date.now();
  const proc = spawnInGroup(CLAUDE_BIN, ['plugin', ...args], { cwd: sandbox.workspace, env: sandbox.env(), stdin: 'ignore' });
  const { exit, timedOut, durationMs } = await settle(proc, timeoutMs, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}

/** Why the pinned binary cannot run here ('' when it can): a missing package or a failing `--version`. */
export function claudeBinaryProblem(run: (bin: string) => { status: number | null; stdout: string; stderr: string; error?: Error }): string {
  if (!existsSync(CLAUDE_BIN)) {
    return `Claude Code CLI not installed: ${CLAUDE_BIN} is missing. Run \`npm ci\` (devDependency @anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}; its native binary comes from the optional package ${claudePlatformPackage()}, which npm must not omit).`;
  }
  const version = run(CLAUDE_BIN);
  if (version.status !== 0 || !version.stdout.includes(CLAUDE_CODE_VERSION)) {
    return `Claude Code CLI at ${CLAUDE_BIN} does not run as ${CLAUDE_CODE_VERSION}: status ${version.status} ${version.error?.message ?? ''}\n${version.stdout}\n${version.stderr}`;
  }
  return '';
}
