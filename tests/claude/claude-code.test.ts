/**
 * The same plugin directory loaded by Claude Code: its manifest, its hook
 * commands under Claude Code's substitution, and the capture path fed a
 * Claude Code Stop payload and a Claude-format transcript. Needs the built
 * bundle (`npm run build`).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ovSessionId } from '../../src/session/ids.js';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { REPO_ROOT } from '../support/spawn-hook.js';
import { pluginMcpFile, pluginMcpServers } from '../support/plugin-mcp.js';
import { claudePayloads, claudeTranscriptPath, createClaudeHost } from './claude-host.js';

const readJson = (path: string) => JSON.parse(readFileSync(join(REPO_ROOT, path), 'utf8')) as Record<string, unknown>;

function sandbox() {
  const home = mkdtempSync(join(tmpdir(), 'ov-claude-home-'));
  const workspace = mkdtempSync(join(tmpdir(), 'ov-claude-ws-'));
  return { home, workspace };
}

/** A two-turn Claude Code transcript, in its record format (user/assistant records wrapping API messages). */
function claudeTranscript(sessionId: string, cwd: string): string {
  const base = { isSidechain: false, userType: 'external', cwd, sessionId, version: '2.1.0', gitBranch: 'main' };
  const records = [
    { type: 'summary', summary: 'Parser work', leafUuid: 'x' },
    {
      ...base,
      parentUuid: null,
      uuid: 'u1',
      timestamp: '2026-05-01T10:00:00.000Z',
      type: 'user',
      message: { role: 'user', content: 'Which test runner does this repo use?' },
    },
    {
      ...base,
      parentUuid: 'u1',
      uuid: 'a1',
      timestamp: '2026-05-01T10:00:02.000Z',
      type: 'assistant',
      requestId: 'req_1',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'It uses vitest 4, run with npx vitest run.' }],
      },
    },
    {
      ...base,
      parentUuid: 'a1',
      uuid: 'u2',
      timestamp: '2026-05-01T10:01:00.000Z',
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: 'Remember that I prefer tabs over spaces.' }] },
    },
    {
      ...base,
      parentUuid: 'u2',
      uuid: 'a2',
      timestamp: '2026-05-01T10:01:02.000Z',
      type: 'assistant',
      requestId: 'req_2',
      message: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Noted: tabs over spaces.' }],
      },
    },
  ];
  return `${records.map((record) => JSON.stringify(record)).join('\n')}\n`;
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Claude Code manifest', () => {
  it('names the same plugin and version as the CodeBuddy manifest', () => {
    const claude = readJson('.claude-plugin/plugin.json');
    const codebuddy = readJson('.codebuddy-plugin/plugin.json');
    expect(claude['name']).toBe(codebuddy['name']);
    expect(claude['version']).toBe(codebuddy['version']);
    expect(typeof claude['description']).toBe('string');
  });

  it('the MCP server file names the one placeholder both hosts fill in, so Claude Code users add nothing by hand', () => {
    // CodeBuddy rewrites ${CLAUDE_PLUGIN_ROOT} in MCP args; Claude Code expands it; ${CODEBUDDY_PLUGIN_ROOT}
    // fails on Claude Code ("Missing environment variables") (codebuddy-host README §8, §9; DESIGN.md D10).
    // Both manifests name the same file, and none lies at the root (a project server there, D34).
    expect(pluginMcpFile('.claude-plugin/plugin.json')).toBe(pluginMcpFile('.codebuddy-plugin/plugin.json'));
    expect(existsSync(join(REPO_ROOT, '.mcp.json'))).toBe(false);
    expect(existsSync(join(REPO_ROOT, 'mcp.json'))).toBe(false);
    const servers = pluginMcpServers();
    expect(servers['openviking']?.args).toEqual(['${CLAUDE_PLUGIN_ROOT}/servers/mcp-proxy.mjs']);
    expect(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).not.toContain('claude mcp add openviking');
  });
});

describe('hooks.json under Claude Code', () => {
  it('every command resolves with only ${CLAUDE_PLUGIN_ROOT} substituted and no CODEBUDDY_* variable set', () => {
    const { home, workspace } = sandbox();
    const host = createClaudeHost({ pluginRoot: REPO_ROOT, home, workspace });
    const commands = Object.keys(host.config).flatMap((event) =>
      host.commandsFor(event, { hook_event_name: event, tool_name: 'Read' }).map((entry) => entry.command),
    );
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command, 'Claude Code leaves ${CODEBUDDY_PLUGIN_ROOT} to bash, which expands it to ""').not.toContain(
        '${CODEBUDDY_PLUGIN_ROOT}',
      );
      expect(command).toContain(REPO_ROOT);
    }
  });

  it("the PreToolUse matcher selects the file tools in Claude Code's reading too", () => {
    const { home, workspace } = sandbox();
    const host = createClaudeHost({ pluginRoot: REPO_ROOT, home, workspace });
    for (const tool of ['Read', 'Write', 'Edit', 'Grep', 'Glob'])
      expect(host.commandsFor('PreToolUse', { tool_name: tool })).toHaveLength(1);
    expect(host.commandsFor('PreToolUse', { tool_name: 'Bash' })).toHaveLength(0);
  });
});

describe('capture from Claude Code', () => {
  let server: OvTestServer;
  beforeAll(async () => void (server = await startOvServer()));
  afterAll(() => server.close());

  it('a Claude Code Stop with a Claude-format transcript lands both turns in the server', async () => {
    const { home, workspace } = sandbox();
    const sessionId = '5f0c2a9e-1b7d-4e3a-9c61-0d2b4f6a8e10';
    const transcriptPath = claudeTranscriptPath(home, workspace, sessionId);
    mkdirSync(join(transcriptPath, '..'), { recursive: true });
    writeFileSync(transcriptPath, claudeTranscript(sessionId, workspace));
    const host = createClaudeHost({ pluginRoot: REPO_ROOT, home, workspace, env: { OPENVIKING_URL: server.url } });
    const payloads = claudePayloads(sessionId, transcriptPath, workspace);

    const [stop] = await host.fire('Stop', payloads.stop());
    expect(stop?.process?.exitCode, stop?.process?.stderr).toBe(0);
    expect(stop?.output.stdout ?? '').toBe('');

    const messages = await waitFor(() => {
      const all = server.session(ovSessionId(sessionId))?.allMessages ?? [];
      return all.length >= 4 ? all : undefined;
    }, 10_000);
    const text = JSON.stringify(messages);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    for (const said of [
      'Which test runner does this repo use?',
      'It uses vitest 4',
      'tabs over spaces',
      'Noted: tabs over spaces.',
    ])
      expect(text).toContain(said);
  }, 20_000);
});
