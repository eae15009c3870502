/**
 * A throwaway world for one CodeBuddy CLI run: its own HOME (so `~/.codebuddy`,
 * `~/.openviking` and the plugin's state are fresh), a `models.json` pointing
 * at the fake model, a workspace to use as cwd, and the minimal `env -i`-style
 * environment of the recipe in codebuddy-host README §1. Disposal kills every
 * process that still carries the sandbox's marker, then deletes the tree.
 *
 * @module
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { killSandboxProcesses, sandboxPids } from './processes.js';

/** Env var every process of the sandbox inherits; teardown finds stragglers by it. */
export const SANDBOX_MARKER = 'OV_E2E_SANDBOX';

export interface SandboxOptions {
  /** The chat-completions URL the CLI must use (FakeModel.chatUrl). */
  modelUrl: string;
  /**
   * How the CLI learns about the model: `models-json` (default; user content arrives as a string) or
   * `env` (`CODEBUDDY_BASE_URL` + `CODEBUDDY_API_KEY`, no models.json; user content arrives as parts).
   */
  modelConfig?: 'models-json' | 'env';
  /** Use `CODEBUDDY_CONFIG_DIR=<root>/cfg` instead of `<home>/.codebuddy` (default: HOME-based, like a real user). */
  separateConfigDir?: boolean;
  /** Directory name prefix, for readable leftovers. */
  label?: string;
}

export interface CliSandbox {
  root: string;
  home: string;
  /** Where the CLI keeps models.json, logs, projects/ transcripts, plugins/, settings.json. */
  configDir: string;
  workspace: string;
  /** The CLI's environment: the recipe's minimal set plus `extra` (undefined values removed). */
  env(extra?: Record<string, string | undefined>): Record<string, string>;
  /** Concatenated CLI logs (`<configDir>/logs/**`), for failure messages and assertions. */
  cliLogs(): string;
  /** Transcript files the CLI wrote (`<configDir>/projects/**.jsonl`). */
  transcripts(): string[];
  /** Pids still alive that belong to this sandbox (by marker env or cwd). */
  livePids(): number[];
  /** Kills leftovers and removes the tree (unless OV_E2E_KEEP=1). */
  dispose(): void;
}

const MODEL_ID = 'fake-model';

/** The `--model` value scenarios pass. */
export const FAKE_MODEL_ID = MODEL_ID;

function modelsJson(modelUrl: string): string {
  const model = {
    id: MODEL_ID,
    name: 'Fake Model',
    vendor: 'OpenAI',
    apiKey: 'sk-fake-not-a-secret',
    url: modelUrl,
    maxInputTokens: 128000,
    maxOutputTokens: 4096,
    supportsToolCall: true,
    supportsImages: false,
  };
  return `${JSON.stringify({ models: [model], availableModels: [MODEL_ID] }, null, 2)}\n`;
}

export function filesUnder(dir: string, accept: (path: string) => boolean): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return []; // not created (yet)
  }
  const found: string[] = [];
  for (const entry of entries.sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, accept));
    else if (accept(path)) found.push(path);
  }
  return found;
}

/**
 * The `env -i`-style environment both CLIs start from: a throwaway HOME, node first on PATH, no
 * telemetry or updates, a short MCP settle wait (F13), and the marker teardown finds processes by.
 */
export function minimalCliEnv(home: string, root: string): Record<string, string> {
  return {
    HOME: home,
    PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
    SHELL: '/bin/bash',
    LANG: 'C.UTF-8',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    MCP_TIMEOUT: '5000',
    [SANDBOX_MARKER]: root,
  };
}

/** `base` with `extra` laid over it; an undefined value removes the key. */
export function overlayEnv(
  base: Record<string, string>,
  extra: Record<string, string | undefined>,
): Record<string, string> {
  const env = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** `==> path` headed contents of `paths`, for logs in failure messages. */
export function concatenateFiles(paths: string[]): string {
  return paths.map((path) => `==> ${path}\n${readFileSync(path, 'utf8')}`).join('\n');
}

/** Creates the sandbox under the OS temp dir (test-only state; the plugin's own state lands inside HOME). */
export function createCliSandbox(options: SandboxOptions): CliSandbox {
  const root = mkdtempSync(join(tmpdir(), `ov-e2e-${options.label ?? 'run'}-`));
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  const configDir = options.separateConfigDir ? join(root, 'cfg') : join(home, '.codebuddy');
  for (const dir of [home, workspace, configDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const viaEnv = options.modelConfig === 'env';
  if (!viaEnv) writeFileSync(join(configDir, 'models.json'), modelsJson(options.modelUrl), { mode: 0o600 });

  const baseEnv: Record<string, string> = {
    ...minimalCliEnv(home, root),
    // CodeBuddy stalls every headless start for the whole MCP_TIMEOUT before it spawns the servers, then gives
    // each that long to connect (F13); the proxy answers `initialize` itself (D8), well inside 2.5 s at load 15.
    // Each start is 2.5 s shorter than at 5 s: about two minutes over the suite.
    MCP_TIMEOUT: '2500',
    CODEBUDDY_SKIP_BUILTIN_MARKETPLACE: '1',
  };
  if (options.separateConfigDir) baseEnv.CODEBUDDY_CONFIG_DIR = configDir;
  if (viaEnv) {
    baseEnv.CODEBUDDY_BASE_URL = options.modelUrl.replace(/\/chat\/completions$/, '');
    baseEnv.CODEBUDDY_API_KEY = 'sk-fake-not-a-secret';
  }

  return {
    ...sandboxMembers({ root, home, configDir, workspace, baseEnv }),
    cliLogs: () => concatenateFiles(filesUnder(join(configDir, 'logs'), (path) => path.endsWith('.log'))),
  };
}

/** What every CLI sandbox has (both hosts keep transcripts under `<configDir>/projects/`), given its paths and base environment. */
export function sandboxMembers(paths: {
  root: string;
  home: string;
  configDir: string;
  workspace: string;
  baseEnv: Record<string, string>;
}): Omit<CliSandbox, 'cliLogs'> {
  const { root, baseEnv, configDir } = paths;
  return {
    root,
    home: paths.home,
    configDir,
    workspace: paths.workspace,
    env: (extra = {}) => overlayEnv(baseEnv, extra),
    transcripts: () => filesUnder(join(configDir, 'projects'), (path) => path.endsWith('.jsonl')),
    livePids: () => sandboxPids(SANDBOX_MARKER, root),
    dispose: () => {
      killSandboxProcesses(SANDBOX_MARKER, root);
      if (process.env.OV_E2E_KEEP !== '1') rmSync(root, { recursive: true, force: true });
    },
  };
}
