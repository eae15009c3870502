/**
 * Session routes the capture path and doctor call (openviking-api.md §2.1,
 * §10; docs/host-facts.md F17, F39, F41): get (404, `auto_create`), one
 * and batch adds (auto-create, post-write counts, the 100-message limit,
 * validation, the tool-result split), the commit policy (`PATCH …/config`,
 * `POST /sessions`), and what concurrent writes to one session answer.
 *
 * @module
 */
import { expect } from 'vitest';
import { as, freshSession, readSession, type Answer } from '../target.js';
import { errorOf, okResult, validationErrorOf, type ContractCase } from './case.js';

const session = (id: string, suffix = ''): string => `/api/v1/sessions/${encodeURIComponent(id)}${suffix}`;
const text = (role: string, content: string) => ({ role, content });

export const sessionCases: readonly ContractCase[] = [
  {
    name: 'GET a session: 404 NOT_FOUND unless auto_create=true; the record’s fields and types',
    covers: ['GET /api/v1/sessions/{session_id}'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'get');
      errorOf(await as(target, tenant, 'GET', session(id)), 404, 'NOT_FOUND', 'a missing session');
      const made = okResult(await as(target, tenant, 'GET', session(id, '?auto_create=true')));
      expect(made).toMatchObject({
        session_id: id,
        message_count: 0,
        commit_count: 0,
        pending_tokens: 0,
        total_message_count: 0,
        auto_commit_policy: null,
        memories_extracted: { total: 0 },
        uri: `viking://user/${tenant.user}/sessions/${id}`,
        user: { account_id: tenant.account, user_id: tenant.user },
      });
      // Unset times are "", not null (F39)
      expect(made).toMatchObject({
        last_commit_at: '',
        last_message_at: '',
        memory_extraction_config: { events: { tags: [] } },
      });
      expect(typeof made.created_at).toBe('string');
      okResult(await readSession(target, tenant, session(id)), 'the session exists now');
    },
  },
  {
    name: 'messages: the first add creates the session; {session_id, message_count, pending_tokens} after the write',
    covers: ['POST /api/v1/sessions/{session_id}/messages'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'add');
      const added = okResult(await as(target, tenant, 'POST', session(id, '/messages'), text('user', 'hello world!')));
      expect(added).toEqual({ session_id: id, message_count: 1, pending_tokens: 3 });
      const parts = okResult(
        await as(target, tenant, 'POST', session(id, '/messages'), {
          role: 'assistant',
          parts: [{ type: 'text', text: 'four five six seven' }],
          created_at: '2026-01-02T03:04:05Z',
        }),
      );
      expect(parts).toEqual({ session_id: id, message_count: 2, pending_tokens: 8 });
      const record = okResult(await readSession(target, tenant, session(id)));
      expect(record).toMatchObject({ message_count: 2, total_message_count: 2, pending_tokens: 8 });
      expect(typeof record.last_message_at).toBe('string');
    },
  },
  {
    name: 'batch: {session_id, message_count, added, pending_tokens}; 101 messages is a 400 and stores nothing',
    covers: ['POST /api/v1/sessions/{session_id}/messages/batch'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'batch');
      const batch = okResult(
        await as(target, tenant, 'POST', session(id, '/messages/batch'), {
          messages: [
            { role: 'user', parts: [{ type: 'text', text: 'one' }], peer_id: 'proj-a' },
            text('assistant', 'two'),
            text('user', 'three'),
          ],
        }),
      );
      expect(batch).toEqual({ session_id: id, message_count: 3, added: 3, pending_tokens: 4 });
      const many = { messages: Array.from({ length: 101 }, (_, i) => text('user', `m${i}`)) };
      validationErrorOf(await as(target, tenant, 'POST', session(id, '/messages/batch'), many), 'messages');
      expect(okResult(await readSession(target, tenant, session(id))).total_message_count).toBe(3);
    },
  },
  {
    name: 'message validation: a bad peer_id, no role, neither content nor parts are 400; a tool-result aggregate is split',
    covers: ['POST /api/v1/sessions/{session_id}/messages', 'POST /api/v1/sessions/{session_id}/messages/batch'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'valid');
      const add = (body: unknown): Promise<Answer> => as(target, tenant, 'POST', session(id, '/messages'), body);
      validationErrorOf(await add({ role: 'user', content: 'x', peer_id: 'a/b' }), 'peer_id');
      validationErrorOf(await add({ content: 'x' }), 'role');
      errorOf(await add({ role: 'user' }), 400, 'INVALID_ARGUMENT');
      const tool = (toolId: string, output: string) => ({
        type: 'tool',
        tool_id: toolId,
        tool_name: 'Read',
        tool_output: output,
        tool_status: 'completed',
      });
      const split = okResult(await add({ role: 'user', parts: [tool('t1', 'a'), tool('t2', 'b')] }));
      expect(split.message_count).toBe(2);
    },
  },
  {
    name: 'PATCH …/config: 404 before the session exists; the effective policy (defaults, clamps); 400s that name auto_commit_policy; null turns it off',
    covers: ['PATCH /api/v1/sessions/{session_id}/config'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'policy');
      const patch = (policy: unknown): Promise<Answer> =>
        as(target, tenant, 'PATCH', session(id, '/config'), { auto_commit_policy: policy });
      errorOf(await patch({ pending_token_threshold: 20000 }), 404, 'NOT_FOUND', 'before the first write');
      okResult(await as(target, tenant, 'POST', session(id, '/messages'), text('user', 'hi')));
      const set = okResult(
        await patch({
          pending_token_threshold: 20000,
          message_count_threshold: 5000,
          idle_timeout_seconds: 1800,
          keep_recent_count: 0,
        }),
      );
      expect(set).toMatchObject({
        session_id: id,
        auto_commit_policy: {
          pending_token_threshold: 20000,
          message_count_threshold: 1000,
          idle_timeout_seconds: 1800,
          keep_recent_count: 0,
          min_commit_interval_seconds: 0,
        },
      });
      expect(okResult(await readSession(target, tenant, session(id))).auto_commit_policy).toEqual(
        set.auto_commit_policy,
      );
      const unknown = validationErrorOf(await patch({ bogus: 1 }), 'bogus');
      expect(unknown.message).toContain('Extra inputs are not permitted');
      expect(validationErrorOf(await patch({ idle_timeout_seconds: null }), 'auto_commit_policy').message).toContain(
        'auto_commit_policy=null',
      );
      const tooShort = validationErrorOf(await patch({ idle_timeout_seconds: 60 }), 'idle_timeout_seconds');
      expect(tooShort.message).toMatch(/0 or at least 300/);
      expect(okResult(await patch({ idle_timeout_seconds: 300 })).auto_commit_policy.idle_timeout_seconds).toBe(300);
      expect(okResult(await patch(null)).auto_commit_policy).toBeNull();
    },
  },
  {
    name: 'POST /sessions with a policy answers it; the same id again is 409 ALREADY_EXISTS',
    covers: ['POST /api/v1/sessions'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'create');
      const made = okResult(
        await as(target, tenant, 'POST', '/api/v1/sessions', {
          session_id: id,
          auto_commit_policy: { message_count_threshold: 3 },
        }),
      );
      expect(made).toMatchObject({
        session_id: id,
        uri: `viking://user/${tenant.user}/sessions/${id}`,
        user: { account_id: tenant.account, user_id: tenant.user },
        auto_commit_policy: { pending_token_threshold: 150000, message_count_threshold: 3 },
      });
      errorOf(await as(target, tenant, 'POST', '/api/v1/sessions', { session_id: id }), 409, 'ALREADY_EXISTS');
    },
  },
  {
    name: 'one session, written and committed at once: every call answers 200 and no message is lost (no 409)',
    covers: ['POST /api/v1/sessions/{session_id}/messages', 'POST /api/v1/sessions/{session_id}/commit'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'busy');
      okResult(
        await as(target, tenant, 'POST', session(id, '/messages/batch'), {
          messages: [text('user', 'one two three'), text('assistant', 'four')],
        }),
      );
      const calls = [
        ...[1, 2].map(() => as(target, tenant, 'POST', session(id, '/commit'), {})),
        ...[1, 2, 3, 4].map((n) => as(target, tenant, 'POST', session(id, '/messages'), text('user', `later ${n}`))),
      ];
      for (const answer of await Promise.all(calls)) okResult(answer, 'a concurrent call');
      const record = okResult(await readSession(target, tenant, session(id)));
      expect(record.total_message_count).toBe(6);
      expect(record.commit_count).toBeGreaterThanOrEqual(1);
    },
  },
];
