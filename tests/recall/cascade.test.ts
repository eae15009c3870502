/**
 * The prompt stage in-process (real node:http transport, real test server,
 * an injected clock): every skip rule sends nothing, the tier decision is
 * per server URL and expires, and the deadline bounds a slow server.
 *
 * @module
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { socketHttpTransport } from '../../src/openviking/socketHttp.js';
import type { UserPromptSubmitInput } from '../../src/protocol/input.js';
import { isUnsupported } from '../../src/recall/cascade.js';
import { TIER_DECISION_TTL_MS } from '../../src/recall/tierCache.js';
import { planRecall, runPrompt } from '../../src/stages/prompt.js';
import { createTestDeps } from '../support/host-sim/test-deps.js';
import { startOvServer } from '../support/ov-server/index.js';
import type { OvTestServer } from '../support/ov-server/index.js';
import { DEFAULT_SEED, RECALL_MARKER, RECALL_PROMPT } from '../support/session-world.js';

let server: OvTestServer;
let legacy: OvTestServer;
let home = '';
let clock = 1_800_000_000_000;

beforeAll(async () => {
  server = await startOvServer({ seed: DEFAULT_SEED });
  legacy = await startOvServer({ seed: DEFAULT_SEED });
  legacy.faults.legacyContextFace = true;
});
afterAll(async () => {
  await server.close();
  await legacy.close();
});
afterEach(() => {
  server.clearRequests();
  legacy.clearRequests();
  if (home) rmSync(home, { recursive: true, force: true });
});

function freshHome(): void {
  home = mkdtempSync(join(tmpdir(), 'ov-h-cascade-'));
}

function deps(url: string, env: Record<string, string> = {}) {
  return createTestDeps({
    env: { OPENVIKING_URL: url, ...env },
    homeDir: home,
    cwd: '/work/project',
    http: socketHttpTransport,
    now: () => clock,
  });
}

function prompt(text: string, extra: Partial<UserPromptSubmitInput> = {}): UserPromptSubmitInput {
  return { hook_event_name: 'UserPromptSubmit', session_id: 's-1', cwd: '/work/project', prompt: text, ...extra };
}

describe('skip rules send nothing', () => {
  const cases: Array<[string, UserPromptSubmitInput, Record<string, string>?]> = [
    ['internal continuation (2.163)', prompt(RECALL_PROMPT, { is_internal_continuation: true })],
    ['Stop-hook text (2.117)', prompt('Stop hook: Hook timed out after 2000ms')],
    ['hook timeout text', prompt('Hook timed out after 5000ms')],
    [
      'compaction continuation',
      prompt(
        'Please continue with the conversation based on the summarized context above. Maintain the same level of detail.',
      ),
    ],
    ['host markup only', prompt('<system-reminder>auto memory instructions</system-reminder>')],
    ['already carries our tag', prompt(`<openviking-context source="recall">x</openviking-context> ${RECALL_PROMPT}`)],
    ['too short', prompt('hi')],
    ['bare slash command', prompt('/compact')],
    ['recall off', prompt(RECALL_PROMPT), { OPENVIKING_AUTO_RECALL: 'false' }],
    ['plugin off', prompt(RECALL_PROMPT), { OPENVIKING_MEMORY_ENABLED: '0' }],
    ['bypassed session', prompt(RECALL_PROMPT), { OPENVIKING_BYPASS_SESSION: '1' }],
    [
      'bypass pattern on the session id',
      prompt(RECALL_PROMPT, { session_id: 'scratch-42' }),
      { OPENVIKING_BYPASS_SESSION_PATTERNS: 'other,scratch-*' },
    ],
  ];
  for (const [name, input, env] of cases) {
    it(name, async () => {
      freshHome();
      const result = await runPrompt(input, deps(server.url, env));
      expect(result).toEqual({ kind: 'pass' });
      expect(server.requests()).toHaveLength(0);
    });
  }

  it('the same prompt without a skip reason does reach the server (the cases above can fail)', async () => {
    freshHome();
    const result = await runPrompt(prompt(RECALL_PROMPT), deps(server.url));
    expect(result.kind === 'context' && result.text.includes(RECALL_MARKER)).toBe(true);
    expect(server.requests()).toHaveLength(1);
  });

  it('a slash command with arguments and a shell escape never recall (issue 17.2)', async () => {
    for (const text of [
      `/ask ${RECALL_PROMPT}`,
      `/openviking:forget ${RECALL_PROMPT}`,
      `!grep -r "${RECALL_PROMPT}" .`,
    ]) {
      freshHome();
      expect(await runPrompt(prompt(text, { session_id: 's-slash' }), deps(server.url))).toEqual({ kind: 'pass' });
    }
    expect(server.requests()).toHaveLength(0);
  });

  it('the <user_query> body is the query when the host wraps the prompt', async () => {
    freshHome();
    await runPrompt(
      prompt(`<system-reminder>noise words</system-reminder><user_query>${RECALL_PROMPT}</user_query>`),
      deps(server.url),
    );
    expect((server.requests()[0]?.body as { query: string }).query).toBe(RECALL_PROMPT);
  });
});

describe('tier decision', () => {
  /** One prompt, and what it hands to after its answer (the tier it learned) done. */
  async function recallOnce(url: string) {
    const stageDeps = deps(url);
    const result = await runPrompt(prompt(RECALL_PROMPT), stageDeps);
    await stageDeps.settled();
    return result;
  }

  it('is cached per server URL and expires after an hour', async () => {
    freshHome();
    const paths = (s: OvTestServer) =>
      s.requests({ path: /\/search\// }).map((r) => r.path.replace('/api/v1/search/', ''));
    expect((await recallOnce(legacy.url)).kind).toBe('context');
    expect(paths(legacy)).toEqual(['search', 'recall']);
    legacy.clearRequests();

    clock += 60_000;
    await recallOnce(legacy.url);
    expect(paths(legacy)).toEqual(['recall']);
    legacy.clearRequests();

    await recallOnce(server.url);
    expect(paths(server)).toEqual(['search']);

    clock += TIER_DECISION_TTL_MS;
    await recallOnce(legacy.url);
    expect(paths(legacy)).toEqual(['search', 'recall']);
  });

  it('is read when the recall is planned and written only after the answer: the search touches no file', async () => {
    freshHome();
    const stageDeps = deps(legacy.url);
    const planned = planRecall(prompt(RECALL_PROMPT), stageDeps);
    expect(planned).toMatchObject({ recall: true, known: { tier: 'context' } });
    const cache = join(planned.ctx.dataDir, 'cache', 'recall-tier.json');
    const result = await runPrompt(prompt(RECALL_PROMPT), stageDeps);
    expect(result.kind === 'context' && result.text.includes(RECALL_MARKER)).toBe(true);
    // The answer is out; what the search learned is not written yet.
    expect(existsSync(cache)).toBe(false);
    await stageDeps.settled();
    expect(existsSync(cache)).toBe(true);
    expect(planRecall(prompt(RECALL_PROMPT), stageDeps)).toMatchObject({ known: { tier: 'recall' } });
  });

  it('only a "no such field or route" failure falls through', () => {
    const base = { ok: false as const, retryable: false, message: '' };
    expect(
      isUnsupported({
        ...base,
        status: 400,
        code: 'INVALID_ARGUMENT',
        message: 'Invalid request parameters: mode: Extra inputs are not permitted',
      }),
    ).toBe(true);
    expect(
      isUnsupported({ ...base, status: 422, code: 'HTTP_422', message: 'unexpected keyword argument dedup_turns' }),
    ).toBe(true);
    expect(isUnsupported({ ...base, status: 404, code: 'NOT_FOUND' })).toBe(true);
    expect(
      isUnsupported({ ...base, status: 400, code: 'INVALID_ARGUMENT', message: 'query is invalid for this user' }),
    ).toBe(false);
    expect(isUnsupported({ ...base, status: 401, code: 'UNAUTHENTICATED', message: 'extra mode' })).toBe(false);
    expect(isUnsupported({ ...base, status: 500, code: 'INTERNAL' })).toBe(false);
  });
});

describe('deadline', () => {
  it('a server slower than promptDeadlineMs costs at most the deadline', async () => {
    freshHome();
    server.faults.latency(3_000);
    try {
      const started = Date.now();
      const slowDeps = createTestDeps({
        env: { OPENVIKING_URL: server.url, OPENVIKING_PROMPT_DEADLINE_MS: '300' },
        homeDir: home,
        http: socketHttpTransport,
        now: Date.now,
      });
      expect(await runPrompt(prompt(RECALL_PROMPT), slowDeps)).toEqual({ kind: 'pass' });
      expect(Date.now() - started).toBeLessThan(300 + 1_000);
    } finally {
      server.faults.clear();
    }
  });
});
