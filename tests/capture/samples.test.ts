/**
 * The capture path on every real transcript sample (CodeBuddy 2.117 and the
 * Claude Code fixture): Stop (or SubagentStop for the sub-agent file) through
 * the host simulator and the built bundle; the server must end up holding
 * exactly what the decoder and the privacy filter make of the file, once, in
 * order. Independent checks: the compaction summary is never stored, denied
 * and MCP tool calls arrive as tool parts, sub-agent turns go to the
 * sub-agent's own session, which is then committed.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeTranscriptRecords, sanitizeMessages } from '../../src/transcript/index.js';
import { ovSubagentSessionId } from '../../src/session/ids.js';
import { createWorld, until, workersIdle } from './support/world.js';
import type { CaptureWorld } from './support/world.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const CODEBUDDY = ['A', 'B', 'C', 'F', 'K', 'L', 'M', 'R', 'U', 'W'];

let world: CaptureWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** role + parts as the decoder and privacy filter produce them for `file`. */
function expectedMessages(file: string, subagent = false): Array<{ role: string; parts: unknown[] }> {
  const records = readFileSync(join(FIXTURES, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
  return sanitizeMessages(decodeTranscriptRecords(records, { includeSidechain: subagent }).messages).map((m) => ({
    role: m.role,
    parts: m.parts,
  }));
}

function stored(w: CaptureWorld, sessionId: string): Array<{ role: string; parts: unknown[] }> {
  return (w.server.session(sessionId)?.allMessages ?? []).map((m) => ({
    role: m.role,
    parts: m.parts.map(stripServerFields),
  }));
}

/** The server fills defaults into tool parts; keep only what the plugin sent. */
function stripServerFields(part: Record<string, unknown>): Record<string, unknown> {
  const keys = ['type', 'text', 'tool_id', 'tool_name', 'tool_input', 'tool_output', 'tool_status'];
  return Object.fromEntries(
    Object.entries(part).filter(([key, value]) => keys.includes(key) && value !== '' && value !== undefined),
  );
}

function placeTranscript(file: string, path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  copyFileSync(join(FIXTURES, file), path);
}

describe('capture of the real transcript samples', () => {
  it.each(CODEBUDDY)('CodeBuddy sample %s lands exactly as decoded', async (sample) => {
    world = await createWorld();
    const w = world;
    const expected = expectedMessages(`codebuddy/${sample}.jsonl`);
    expect(expected.length).toBeGreaterThan(0);
    placeTranscript(`codebuddy/${sample}.jsonl`, w.p.transcriptPath);
    await w.sim.fire('Stop', w.p.stop());
    await until(() => stored(w, w.ovId).length >= expected.length, 15_000, `sample ${sample}`);
    await workersIdle(w);
    expect(stored(w, w.ovId)).toEqual(
      expected.map((m) => ({
        role: m.role,
        parts: m.parts.map((p) => stripServerFields(p as Record<string, unknown>)),
      })),
    );
    const texts = w.storedTexts().join('\n');
    expect(texts).not.toContain('conversation_history_summary');
    expect(texts).not.toContain('<system-reminder');
  });

  it('sample B keeps the denied Read and the MCP call as tool parts', async () => {
    world = await createWorld();
    const w = world;
    placeTranscript('codebuddy/B.jsonl', w.p.transcriptPath);
    await w.sim.fire('Stop', w.p.stop());
    await until(() => w.storedTexts().length >= 9);
    const tools = (w.server.session(w.ovId)?.allMessages ?? [])
      .flatMap((m) => m.parts)
      .filter((p) => p.type === 'tool');
    expect(tools.map((t) => t.tool_name)).toEqual(['Read', 'mcp__probe__probe_echo', 'Agent']);
    expect(String(tools[0]?.tool_output)).toContain('PROBE-DENY');
  });

  it('a sub-agent transcript goes to its own session at SubagentStop, which is then committed', async () => {
    world = await createWorld();
    const w = world;
    const agentId = 'agent-5867bee3';
    placeTranscript('codebuddy/B-subagent.jsonl', w.p.subagentTranscriptPath(agentId));
    const start = await w.sim.fire('SubagentStart', w.p.subagentStart(agentId));
    expect(start.outputs[0]?.stdout ?? '').toBe('');
    await w.sim.fire('SubagentStop', w.p.subagentStop(agentId));
    const subId = ovSubagentSessionId(w.p.sessionId, agentId);
    await until(() => (w.server.session(subId)?.commits.length ?? 0) > 0, 15_000, 'sub-agent commit');
    expect(w.storedTexts(subId)).toEqual(['SUBAGENT-PROBE say hi', 'subagent done']);
    expect(w.server.session(subId)?.archives.length).toBe(1);
    expect(w.server.session(w.ovId)).toBeUndefined();
  });

  it('a Claude Code transcript (and its sub-agent file) is captured the same way', async () => {
    world = await createWorld();
    const w = world;
    const expected = expectedMessages('claude-code/session.jsonl');
    placeTranscript('claude-code/session.jsonl', w.p.transcriptPath);
    await w.sim.fire('Stop', w.p.stop());
    await until(() => stored(w, w.ovId).length >= expected.length);
    await workersIdle(w);
    expect(stored(w, w.ovId)).toEqual(
      expected.map((m) => ({
        role: m.role,
        parts: m.parts.map((p) => stripServerFields(p as Record<string, unknown>)),
      })),
    );

    const agentExpected = expectedMessages('claude-code/agent-a1b2c3.jsonl', true);
    expect(agentExpected.length).toBeGreaterThan(0);
    const agentPath = join(dirname(w.p.transcriptPath), 'agent-a1b2c3.jsonl');
    placeTranscript('claude-code/agent-a1b2c3.jsonl', agentPath);
    // Claude Code sends the MAIN transcript as transcript_path and the agent's as agent_transcript_path.
    await w.sim.fire(
      'SubagentStop',
      w.p.subagentStop('a1b2c3', { transcript_path: w.p.transcriptPath, agent_transcript_path: agentPath }),
    );
    const subId = ovSubagentSessionId(w.p.sessionId, 'a1b2c3');
    await until(() => (w.server.session(subId)?.commits.length ?? 0) > 0, 15_000, 'claude sub-agent commit');
    expect(stored(w, subId)).toEqual(
      agentExpected.map((m) => ({
        role: m.role,
        parts: m.parts.map((p) => stripServerFields(p as Record<string, unknown>)),
      })),
    );
  });
});
