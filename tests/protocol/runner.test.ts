import { describe, expect, it } from 'vitest';
import { DEFAULT_HOOK_TIMEOUT_MS, hookTimeoutMs, runHook } from '../support/host-sim/protocol/index.js';
import type { ShellExecutor, ShellRequest } from '../support/host-sim/protocol/index.js';

function fakeClock(stepMs: number): () => number {
  let t = 0;
  return () => (t += stepMs);
}

describe('runHook', () => {
  it('passes command, stdin and the timeout in ms to the executor and decodes the result', async () => {
    const seen: ShellRequest[] = [];
    const executor: ShellExecutor = async (request) => {
      seen.push(request);
      return { exitCode: 0, stdout: '{"hookSpecificOutput":{"additionalContext":"c"}}', stderr: '', timedOut: false };
    };
    const run = await runHook(
      executor,
      { type: 'command', command: 'echo hi', timeout: 3 },
      { stdin: '{"a":1}', now: fakeClock(5) },
    );
    expect(seen).toEqual([{ command: 'echo hi', stdin: '{"a":1}', timeoutMs: 3000 }]);
    expect(run.output.additionalContext).toBe('c');
    expect(run.durationMs).toBe(5);
  });

  it('defaults to the host 60 s timeout for a missing or invalid timeout', () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(60_000);
    expect(hookTimeoutMs({ type: 'command', command: 'x' })).toBe(60_000);
    expect(hookTimeoutMs({ type: 'command', command: 'x', timeout: 0 })).toBe(60_000);
    expect(hookTimeoutMs({ type: 'command', command: 'x', timeout: 0.5 })).toBe(500);
  });

  it('a hook killed at its timeout reads as a block, as on CodeBuddy', async () => {
    const executor: ShellExecutor = async () => ({ exitCode: null, stdout: 'partial', stderr: '', timedOut: true });
    const run = await runHook(
      executor,
      { type: 'command', command: 'x', timeout: 2 },
      { stdin: '', now: fakeClock(1) },
    );
    expect(run.output).toMatchObject({
      status: 'blocking',
      timedOut: true,
      decision: 'block',
      reason: 'Hook timed out after 2000ms',
      stdout: 'partial',
    });
  });

  it('an executor that never settles is abandoned after the timeout plus grace', async () => {
    const executor: ShellExecutor = () => new Promise(() => undefined);
    const started = Date.now();
    const run = await runHook(
      executor,
      { type: 'command', command: 'x', timeout: 0.05 },
      { stdin: '', now: Date.now, executorGraceMs: 20 },
    );
    expect(run.output).toMatchObject({ timedOut: true, decision: 'block' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it('an executor rejection or throw becomes a non-blocking error, never a rejection', async () => {
    const rejecting: ShellExecutor = async () => {
      throw new Error('spawn ENOENT');
    };
    const throwing: ShellExecutor = () => {
      throw new Error('sync boom');
    };
    for (const executor of [rejecting, throwing]) {
      const run = await runHook(executor, { type: 'command', command: 'x' }, { stdin: '', now: fakeClock(1) });
      expect(run.output.status).toBe('non-blocking');
      expect(run.output.stderr).toMatch(/ENOENT|sync boom/);
    }
  });
});
