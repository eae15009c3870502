/**
 * Claude Code scenario 1 — `claude --plugin-dir <repo> -p`, the plugin's main
 * loop through the real Claude Code CLI (each pinned version): the profile and a recalled
 * memory reach the first model request as "… hook additional context" system
 * entries; a scripted `Read` of a `viking://` URI (which Claude Code makes
 * absolute before PreToolUse) comes back as a tool error naming the MCP read
 * tool by Claude Code's name; the model then loads that tool through
 * ToolSearch and reads a memory with it (the MCP server started from
 * `.mcp.json`); the turn lands in OpenViking exactly once. The plugin's hooks
 * module refuses the Read in `tool.call` (claude-module holds the shell path
 * to the same reason, and the absolute path PreToolUse gets). The same run pins
 * the host facts docs/host-facts.md records for Claude Code: the hook env, the
 * transcript format (decoded by our decoder from the real file), where the
 * plugin's state lands.
 *
 * @module
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDataDir } from '../../src/store/paths.js';
import { decodeTranscriptRecords } from '../../src/transcript/index.js';
import { systemEntriesText } from './support/anthropic-model.js';
import { onceEach, settledCounts } from './support/capture-counts.js';
import { runClaude } from './support/claude-cli.js';
import type { CliRun } from './support/cli.js';
import {
  claudeSessionIdOf,
  createClaudeWorld,
  forEachClaudeVersion,
  type ClaudeWorld,
} from './support/claude-world.js';
import { expectNormalExit } from './support/expect-run.js';
import { countMessages, mainSessionOf, SEED } from './support/openviking.js';
import { REPO_ROOT } from './support/repo.js';
import { afterToolResultOf, callTool, firstMatching, onPrompt } from './support/script.js';

const PROMPT = `${SEED.recallPrompt} (E2E-CC-ONE)`;
const ANSWER = 'E2E-CC-ONE-ANSWER use helm upgrade';
/** The read tool of the plugin's MCP server `openviking`, as Claude Code names it. */
const MCP_READ = 'mcp__plugin_openviking_openviking__read';

forEachClaudeVersion((version) => {
  let world: ClaudeWorld;
  let run: CliRun;

  beforeAll(async () => {
    world = await createClaudeWorld(
      version,
      'recall',
      firstMatching([
        onPrompt('E2E-CC-ONE', callTool('Read', { file_path: SEED.profileUri })),
        afterToolResultOf('Read', callTool('ToolSearch', { query: `select:${MCP_READ}`, max_results: 5 })),
        afterToolResultOf('ToolSearch', callTool(MCP_READ, { uris: SEED.recallUri })),
        afterToolResultOf(MCP_READ, { text: ANSWER }),
      ]),
    );
    run = await runClaude(world.sandbox, PROMPT, {
      pluginDirs: [REPO_ROOT, world.envProbeDir],
      env: world.pluginEnv,
      allowedTools: ['Read', 'ToolSearch', MCP_READ],
    });
  });

  afterAll(async () => {
    await world?.dispose();
  });

  function toolResultAfter(toolName: string): { text: string; isError: boolean } | undefined {
    for (const call of world.model.calls('conversation')) {
      const named = call.messages
        .flatMap((message) => message.tool_calls ?? [])
        .filter((candidate) => candidate.function.name === toolName);
      const result = call.messages.find(
        (message) => message.role === 'tool' && named.some((candidate) => candidate.id === message.tool_call_id),
      );
      if (result) return { text: String(result.content ?? ''), isError: result.is_error === true };
    }
    return undefined;
  }

  describe('Claude Code scenario 1: --plugin-dir, -p', () => {
    it('the CLI finishes normally and answers', () => {
      expectNormalExit(run);
      expect(run.stdout, world.evidence()).toContain(ANSWER);
    });

    it('the profile and the recalled memory reach the first model request as hook additional context', () => {
      const context = systemEntriesText(world.model.calls('conversation')[0]);
      expect(context, world.evidence()).toMatch(
        /SessionStart hook additional context:[\s\S]*PROFILE-MARKER-ADA-LOVELACE/,
      );
      expect(context, world.evidence()).toMatch(
        /UserPromptSubmit hook additional context:[\s\S]*RECALL-MARKER-KESTREL-7/,
      );
    });

    it('a Read of a viking:// URI is denied with a reason naming the MCP read tool by its Claude Code name', () => {
      const result = toolResultAfter('Read');
      expect(result, world.evidence()).toBeDefined();
      expect(result?.isError).toBe(true);
      expect(result?.text).toContain(MCP_READ);
      expect(result?.text).not.toContain(SEED.profileMarker);
      expect(result?.text).not.toContain('DeferExecuteTool');
    });

    it('the MCP server from .mcp.json runs: ToolSearch loads its read tool and the call returns the memory', () => {
      const first = world.model.calls('conversation')[0];
      expect(systemEntriesText(first), 'deferred tools announced to the model').toContain(MCP_READ);
      expect(toolResultAfter('ToolSearch')?.isError, world.evidence()).toBe(false);
      const read = toolResultAfter(MCP_READ);
      expect(read?.isError, world.evidence()).toBe(false);
      expect(read?.text, world.evidence()).toContain(SEED.recallMarker);
      expect(
        world.ov.requests().some((request) => request.path.startsWith('/mcp')),
        world.evidence(),
      ).toBe(true);
    });

    it('the turn lands in OpenViking exactly once', async () => {
      const sessionId = claudeSessionIdOf(world.model.calls('conversation')[0]);
      expect(sessionId).not.toBe('');
      const probes = {
        prompt: () => countMessages(mainSessionOf(world.ov, sessionId), 'user', 'E2E-CC-ONE'),
        answer: () => countMessages(mainSessionOf(world.ov, sessionId), 'assistant', ANSWER),
      };
      expect(await settledCounts(probes), world.evidence()).toEqual(onceEach(probes));
    });

    it('hooks get CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA, CLAUDE_PROJECT_DIR and CLAUDE_CODE_SESSION_ID, no CODEBUDDY_*', () => {
      const start = world.envProbe().find((record) => record.event === 'SessionStart');
      expect(start, world.evidence()).toBeDefined();
      const sessionId = claudeSessionIdOf(world.model.calls('conversation')[0]);
      expect(start?.env).toMatchObject({
        CLAUDE_PLUGIN_ROOT: world.envProbeDir,
        CLAUDE_PLUGIN_DATA: join(world.sandbox.configDir, 'plugins', 'data', 'envprobe-inline'),
        CLAUDE_PROJECT_DIR: world.sandbox.workspace,
        CLAUDE_CODE_SESSION_ID: sessionId,
        CLAUDECODE: '1',
      });
      expect(Object.keys(start?.env ?? {}).filter((key) => key.startsWith('CODEBUDDY'))).toEqual([]);
      expect(start?.cwd).toBe(world.sandbox.workspace);
      expect(String(start?.stdin.transcript_path)).toBe(
        join(
          world.sandbox.configDir,
          'projects',
          world.sandbox.workspace.replace(/[^A-Za-z0-9]/g, '-'),
          `${sessionId}.jsonl`,
        ),
      );
    });

    it("a plugin's MCP server gets the same CLAUDE_PLUGIN_ROOT, CLAUDE_PLUGIN_DATA and CLAUDE_PROJECT_DIR as its hooks", () => {
      const server = world.envProbe().find((record) => record.event === 'mcp-server');
      expect(server, world.evidence()).toBeDefined();
      expect(server?.env).toMatchObject({
        CLAUDE_PLUGIN_ROOT: world.envProbeDir,
        CLAUDE_PLUGIN_DATA: join(world.sandbox.configDir, 'plugins', 'data', 'envprobe-inline'),
        CLAUDE_PROJECT_DIR: world.sandbox.workspace,
      });
    });

    it('the viking:// Read never reaches PreToolUse: the hooks module refused it in tool.call (the shell path: claude-module)', () => {
      expect(
        world.envProbe().filter((record) => record.event === 'PreToolUse' && record.stdin.tool_name === 'Read'),
        world.evidence(),
      ).toEqual([]);
      expect(world.sandbox.debugLogs()).toMatch(/tool\.call Read \S+: resolved by a hooks module \(deny/);
    });

    it('hooks, resident and workers keep one data directory (DESIGN D21), not split into CLAUDE_PLUGIN_DATA', () => {
      const dataDir = resolveDataDir({}, world.sandbox.home);
      const sessionFiles = (dir: string): string[] =>
        existsSync(join(dir, 'sessions')) ? readdirSync(join(dir, 'sessions')) : [];
      expect(sessionFiles(dataDir), world.evidence()).not.toEqual([]);
      expect(sessionFiles(join(world.sandbox.configDir, 'plugins', 'data', 'openviking-inline'))).toEqual([]);
    });

    it('our decoder reads the real transcript: the prompt, the denied Read, the MCP call and the answer, no host-injected text', () => {
      const [path] = world.sandbox.transcripts();
      expect(path, world.evidence()).toBeDefined();
      const records = readFileSync(path!, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as unknown);
      const decoded = decodeTranscriptRecords(records);
      expect(decoded.format).toBe('claude-code');
      expect(decoded.consumed).toBe(records.length);
      const flat = decoded.messages.map((message) => ({
        role: message.role,
        parts: message.parts.map((part) =>
          'text' in part ? `text:${String(part.text)}` : `${part.type}:${JSON.stringify(part)}`,
        ),
      }));
      const users = flat.filter((message) => message.role === 'user');
      expect(users.map((message) => message.parts.filter((part) => part.startsWith('text:')).join(' '))).toEqual([
        `text:${PROMPT}`,
      ]);
      const all = JSON.stringify(flat);
      expect(all).not.toContain('hook additional context');
      expect(all).not.toContain('<system-reminder>');
      expect(all).not.toContain('openviking-context');
      const assistantParts = flat.filter((message) => message.role === 'assistant').flatMap((message) => message.parts);
      expect(assistantParts.filter((part) => part.startsWith('tool:')).length, JSON.stringify(flat, null, 1)).toBe(3);
      expect(assistantParts.at(-1)).toBe(`text:${ANSWER}`);
      expect(all).toContain(SEED.recallMarker);
    });
  });
});
