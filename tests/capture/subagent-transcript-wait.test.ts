/**
 * Claude Code writes a sub-agent's transcript at or after SubagentStop
 * (DESIGN FC4): the final pass of a sub-agent waits for the file, bounded by
 * the worker's deadline, and only SubagentStop asks for that wait.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { awaitTranscriptFile } from '../../src/capture/awaitTranscript.js';
import { jobFor, type CaptureRequest } from '../../src/capture/requests.js';

const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ov-await-transcript-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const clock = (deadlineInMs = 60_000) => ({ now: () => Date.now(), deadlineAt: Date.now() + deadlineInMs });

describe('awaitTranscriptFile', () => {
  it('returns once the file has held still for the quiet window', async () => {
    const path = join(scratch(), 'agent-a.jsonl');
    writeFileSync(path, '{}\n');
    const started = Date.now();
    expect(await awaitTranscriptFile(path, clock(), 5_000, 200)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('waits out a file written in pieces: the reply appended after the prompt is there when it returns', async () => {
    const path = join(scratch(), 'agent-c.jsonl');
    writeFileSync(path, '{"type":"user"}\n');
    setTimeout(() => appendFileSync(path, '{"type":"assistant"}\n'), 300);
    expect(await awaitTranscriptFile(path, clock(), 5_000, 500)).toBe(true);
    expect(readFileSync(path, 'utf8')).toContain('assistant');
  });

  it('waits for a file the host writes after the hook ran', async () => {
    const path = join(scratch(), 'agent-b.jsonl');
    setTimeout(() => writeFileSync(path, '{}\n'), 400);
    const started = Date.now();
    expect(await awaitTranscriptFile(path, clock(), 5_000, 100)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
  });

  it('gives up at its wait or at the worker deadline, whichever comes first', async () => {
    const path = join(scratch(), 'never.jsonl');
    let started = Date.now();
    expect(await awaitTranscriptFile(path, clock(), 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    started = Date.now();
    expect(await awaitTranscriptFile(path, clock(200))).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('jobFor', () => {
  const request = (event: string, subagent: boolean): CaptureRequest => ({
    event,
    ovSessionId: subagent ? 'cb-s__subagent-a' : 'cb-s',
    hostSessionId: 's',
    workspace: '/ws',
    transcriptPath: '/t.jsonl',
    subagent,
    commit: event !== 'Stop',
    at: 1,
  });

  it('only SubagentStop asks the pass to wait for the transcript (not commit-stale, not Stop)', () => {
    expect(jobFor([request('SubagentStop', true)])?.subagentEnded).toBe(true);
    expect(jobFor([request('commit-stale', true)])?.subagentEnded).toBeUndefined();
    expect(jobFor([request('Stop', false)])?.subagentEnded).toBeUndefined();
  });
});
