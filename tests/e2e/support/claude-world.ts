/**
 * One Claude Code scenario's world: the scripted Anthropic model, the seeded
 * OpenViking test server, a Claude sandbox, the env pointing the real plugin
 * (this repository, built) at that server, and a second, listen-only plugin
 * that records what Claude Code hands every hook and its MCP server (their
 * CLAUDE_* / CODEBUDDY_* env and the hooks module's hand-off flags, cwd and
 * stdin), so facts about the host are read from the host.
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, inject } from 'vitest';
import { startAnthropicModel, type AnthropicModel } from './anthropic-model.js';
import type { ModelCall, ModelScript } from './chat-types.js';
import { CLAUDE_CODE_VERSIONS, createClaudeSandbox, type ClaudeCodeVersion, type ClaudeSandbox } from './claude-cli.js';
import { startSeededOpenViking, type OvServer } from './openviking.js';
import { evidenceSections, pluginSide, requirePluginBuild } from './world.js';

export interface ClaudeWorld {
  model: AnthropicModel;
  ov: OvServer;
  sandbox: ClaudeSandbox;
  pluginEnv: Record<string, string>;
  /** The listen-only probe plugin's directory (pass it as a second --plugin-dir). */
  envProbeDir: string;
  envProbe(): EnvProbeRecord[];
  pluginDebugLog(): string;
  evidence(): string;
  dispose(): Promise<void>;
}

export interface EnvProbeRecord {
  event: string;
  cwd: string;
  env: Record<string, string>;
  stdin: Record<string, unknown>;
}

/** The Claude Code session id of a model call (`x-claude-code-session-id`). */
export function claudeSessionIdOf(call: ModelCall | undefined): string {
  return call?.headers['x-claude-code-session-id'] ?? '';
}

/** Throws why the pinned Claude Code CLI of `version` cannot run (global setup checked it). */
export function requireClaudeCli(version: ClaudeCodeVersion): void {
  const problem = inject('claudeCliErrors')[version];
  if (problem) throw new Error(problem);
}

/** Declares a file's scenario once per pinned Claude Code version (`Claude Code 2.1.328`, …). */
export function forEachClaudeVersion(scenario: (version: ClaudeCodeVersion) => void): void {
  describe.each(CLAUDE_CODE_VERSIONS)('Claude Code %s', scenario);
}

const ENV_PROBE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SubagentStop'];

/** Run as a hook (`<event>`, JSON on stdin) or as the plugin's MCP server (`mcp-server`: records and exits). */
const ENV_PROBE_SCRIPT = `import { appendFileSync, readFileSync } from 'node:fs';
let stdin = {};
try { if (process.argv[2] !== 'mcp-server') stdin = JSON.parse(readFileSync(0, 'utf8')); } catch {}
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => /^(CLAUDE|CODEBUDDY|OPENVIKING_MODULE_)/.test(key)));
appendFileSync(process.env.OV_E2E_ENV_PROBE_LOG, JSON.stringify({ event: process.argv[2], cwd: process.cwd(), env, stdin }) + '\\n');
`;

function writeEnvProbePlugin(dir: string): void {
  mkdirSync(join(dir, '.claude-plugin'), { recursive: true });
  mkdirSync(join(dir, 'hooks'), { recursive: true });
  writeFileSync(
    join(dir, '.claude-plugin', 'plugin.json'),
    `${JSON.stringify({ name: 'envprobe', version: '0.0.1', description: 'e2e: records hook env' })}\n`,
  );
  const hooks: Record<string, unknown[]> = {};
  for (const event of ENV_PROBE_EVENTS) {
    const command = { type: 'command', command: `node "\${CLAUDE_PLUGIN_ROOT}/probe.mjs" ${event}`, timeout: 10 };
    hooks[event] = [event === 'PreToolUse' ? { matcher: '*', hooks: [command] } : { hooks: [command] }];
  }
  writeFileSync(join(dir, 'hooks', 'hooks.json'), `${JSON.stringify({ hooks }, null, 2)}\n`);
  writeFileSync(
    join(dir, '.mcp.json'),
    `${JSON.stringify({ mcpServers: { envdump: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/probe.mjs', 'mcp-server'] } } })}\n`,
  );
  writeFileSync(join(dir, 'probe.mjs'), ENV_PROBE_SCRIPT);
}

function readLines<T>(path: string): T[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return []; // nothing written yet
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Builds the world; throws first, with the reason, when the pinned CLI of `version` or the plugin's build is missing. */
export async function createClaudeWorld(
  version: ClaudeCodeVersion,
  label: string,
  script: ModelScript,
  server: Parameters<typeof startSeededOpenViking>[0] = {},
): Promise<ClaudeWorld> {
  requireClaudeCli(version);
  requirePluginBuild();
  const model = await startAnthropicModel({ script });
  const ov = await startSeededOpenViking(server);
  const sandbox = createClaudeSandbox({ modelBaseUrl: model.baseUrl, version, label });
  const envProbeDir = join(sandbox.root, 'envprobe');
  const envProbeLog = join(sandbox.root, 'envprobe.jsonl');
  writeEnvProbePlugin(envProbeDir);
  const plugin = pluginSide(ov, sandbox.root);
  const pluginEnv = { ...plugin.pluginEnv, OV_E2E_ENV_PROBE_LOG: envProbeLog };
  const pluginDebugLog = plugin.pluginDebugLog;
  return {
    model,
    ov,
    sandbox,
    pluginEnv,
    envProbeDir,
    envProbe: () => readLines<EnvProbeRecord>(envProbeLog),
    pluginDebugLog,
    evidence: () =>
      [
        ...evidenceSections(model.calls(), ov, pluginDebugLog()),
        `other model requests: ${model.otherRequests().join(', ')}`,
        `claude debug log (tail):\n${sandbox.debugLogs().slice(-3000)}`,
      ].join('\n\n'),
    dispose: async () => {
      if (process.env.OV_E2E_KEEP === '1')
        writeFileSync(join(sandbox.root, 'model-calls.json'), JSON.stringify(model.calls(), null, 1));
      sandbox.dispose();
      await Promise.all([model.close(), ov.close()]);
    },
  };
}
