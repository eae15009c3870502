/**
 * Drives the real Claude Code CLI headless against the scripted Anthropic
 * model, in each pinned version: 2.1.328 (devDependency
 * `@anthropic-ai/claude-code`) and 2.1.332 (the npm alias
 * `@anthropic-ai/claude-code-2.1.332`, the first with the Mods API this
 * plugin's hooks module is typed against). A throwaway HOME, the minimal
 * environment of codebuddy-host README §9, and the native binary run straight
 * from its platform package (`@anthropic-ai/claude-code-<os>-<arch>`, nested
 * under the alias, hoisted for the plain name), so neither the wrapper's
 * postinstall (denied in package.json `allowScripts`, which names the package,
 * not the alias) nor the user's PATH is involved. Runs reuse the CodeBuddy
 * harness's process-group handling.
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

/** The versions the suite pins (package.json devDependencies); every Claude Code scenario runs on each. */
export const CLAUDE_CODE_VERSIONS = ['2.1.328', '2.1.332'] as const;
export type ClaudeCodeVersion = (typeof CLAUDE_CODE_VERSIONS)[number];

/** The devDependency (package name or npm alias) that installs each version. */
export const CLAUDE_CODE_PACKAGES: Record<ClaudeCodeVersion, string> = {
  '2.1.328': '@anthropic-ai/claude-code',
  '2.1.332': '@anthropic-ai/claude-code-2.1.332',
};

/** The platform package holding the native binary, e.g. `@anthropic-ai/claude-code-linux-x64`. */
export function claudePlatformPackage(): string {
  const musl =
    process.platform === 'linux' &&
    !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
      ?.glibcVersionRuntime;
  const platform = process.platform === 'win32' ? 'win32' : process.platform;
  return `@anthropic-ai/claude-code-${platform}-${process.arch}${musl ? '-musl' : ''}`;
}

/**
 * The native `claude` binary of `version` inside node_modules (not necessarily
 * present: see claudeBinaryProblem): nested under its wrapper package when npm
 * put it there (the alias's always is, since the hoisted slot holds the other
 * version's), else hoisted. `--version` in global setup proves which it is.
 */
export function claudeBinary(version: ClaudeCodeVersion): string {
  const platform = claudePlatformPackage().split('/');
  const file = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const nested = join(
    REPO_ROOT,
    'node_modules',
    ...CLAUDE_CODE_PACKAGES[version].split('/'),
    'node_modules',
    ...platform,
    file,
  );
  return existsSync(nested) ? nested : join(REPO_ROOT, 'node_modules', ...platform, file);
}

export interface ClaudeSandbox {
  /** The Claude Code version every run in this sandbox uses, and its binary. */
  version: ClaudeCodeVersion;
  bin: string;
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
export function createClaudeSandbox(options: {
  modelBaseUrl: string;
  version: ClaudeCodeVersion;
  label?: string;
}): ClaudeSandbox {
  const root = mkdtempSync(join(tmpdir(), `ov-claude-${options.version}-${options.label ?? 'run'}-`));
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
    version: options.version,
    bin: claudeBinary(options.version),
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
  const proc = spawnInGroup(sandbox.bin, claudeArgs(['-p', prompt], options), {
    cwd: sandbox.workspace,
    env: sandbox.env(options.env),
    stdin: 'ignore',
  });
  const { exit, timedOut, durationMs } = await settle(proc, options.timeoutMs ?? 60_000, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}

/** A stream-json session; `send` resolves with each turn's `result` line. */
export function startClaudeStreamSession(sandbox: ClaudeSandbox, options: ClaudeRunOptions): StreamSession {
  const started = Date.now();
  const proc = spawnInGroup(sandbox.bin, claudeArgs(STREAM_JSON_ARGS, options), {
    cwd: sandbox.workspace,
    env: sandbox.env(options.env),
    stdin: 'pipe',
  });
  return driveStreamSession(proc, started);
}

/** `claude plugin <args…>` (marketplace add, install) in the sandbox's HOME. */
export async function runClaudePluginCommand(
  sandbox: ClaudeSandbox,
  args: string[],
  timeoutMs = 60_000,
): Promise<CliRun> {
  const started = Date.now();
  const proc = spawnInGroup(sandbox.bin, ['plugin', ...args], {
    cwd: sandbox.workspace,
    env: sandbox.env(),
    stdin: 'ignore',
  });
  const { exit, timedOut, durationMs } = await settle(proc, timeoutMs, started);
  return { exit, stdout: proc.stdout(), stderr: proc.stderr(), durationMs, timedOut };
}

/** Why the pinned binary of `version` cannot run here ('' when it can): a missing package or a failing or wrong `--version`. */
export function claudeBinaryProblem(
  version: ClaudeCodeVersion,
  run: (bin: string) => { status: number | null; stdout: string; stderr: string; error?: Error },
): string {
  const bin = claudeBinary(version);
  if (!existsSync(bin)) {
    return `Claude Code ${version} not installed: ${bin} is missing. Run \`npm ci\` (devDependency ${CLAUDE_CODE_PACKAGES[version]}; its native binary comes from the optional package ${claudePlatformPackage()}, which npm must not omit).`;
  }
  const answer = run(bin);
  if (answer.status !== 0 || answer.stdout.trim().split(/\s/)[0] !== version) {
    return `Claude Code CLI at ${bin} does not run as ${version}: status ${answer.status} ${answer.error?.message ?? ''}\n${answer.stdout}\n${answer.stderr}`;
  }
  return '';
}
