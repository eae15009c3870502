/**
 * Commits and their tasks (openviking-api.md §2.1; docs/host-facts.md F24,
 * F25, F26, F41, F42): the three commit answers, the session after a
 * commit, `…/context`, the task record from `pending` to `completed`, and
 * what a completed extraction leaves: a memory under the user's
 * `memories/`, counted in the task and the session, named in
 * `memory_diff.json`. `/openviking:learned`, the next start's line and the
 * capture's commit read exactly these fields.
 *
 * @module
 */
import { expect } from 'vitest';
import { waitFor } from '../../support/wait.js';
import { as, freshSession, home, readSession, type ContractTarget, type Tenant } from '../target.js';
import { errorOf, okResult, type ContractCase } from './case.js';

const session = (id: string, suffix = ''): string => `/api/v1/sessions/${encodeURIComponent(id)}${suffix}`;
const text = (role: string, content: string) => ({ role, content });
const TASK_STATES = ['pending', 'running', 'cancelling', 'completed', 'failed', 'cancelled'];

/** Polls a task until it settled; its record (extraction takes seconds on the real server). */
async function settled(target: ContractTarget, tenant: Tenant, taskId: string): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const record = okResult(await as(target, tenant, 'GET', `/api/v1/tasks/${encodeURIComponent(taskId)}`));
      expect(TASK_STATES).toContain(record.status);
      return ['completed', 'failed', 'cancelled'].includes(record.status) ? record : undefined;
    },
    { timeoutMs: 80_000, intervalMs: 250, what: `task ${taskId} to settle` },
  );
}

export const commitCases: readonly ContractCase[] = [
  {
    name: 'commit: 404 for a missing session, skipped no_messages, skipped all_within_keep_window, accepted with a task',
    covers: ['POST /api/v1/sessions/{session_id}/commit', 'GET /api/v1/sessions/{session_id}'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'commit');
      errorOf(await as(target, tenant, 'POST', session(id, '/commit'), {}), 404, 'NOT_FOUND', 'never created');
      okResult(await as(target, tenant, 'GET', session(id, '?auto_create=true')));
      expect(okResult(await as(target, tenant, 'POST', session(id, '/commit'), {}))).toMatchObject({
        session_id: id,
        status: 'skipped',
        reason: 'no_messages',
        task_id: null,
        archive_uri: null,
        archived: false,
      });
      okResult(
        await as(target, tenant, 'POST', session(id, '/messages/batch'), {
          messages: [text('user', 'alpha beta'), text('assistant', 'gamma'), text('user', 'delta')],
        }),
      );
      expect(
        okResult(await as(target, tenant, 'POST', session(id, '/commit'), { keep_recent_count: 5 })),
      ).toMatchObject({
        status: 'skipped',
        reason: 'all_within_keep_window',
        archived: false,
      });
      const accepted = okResult(await as(target, tenant, 'POST', session(id, '/commit'), { keep_recent_count: 1 }));
      expect(accepted).toMatchObject({
        session_id: id,
        status: 'accepted',
        archived: true,
        archive_uri: `viking://user/${tenant.user}/sessions/${id}/history/archive_001`,
      });
      expect(typeof accepted.task_id).toBe('string');
      expect(typeof accepted.trace_id).toBe('string');
      expect(okResult(await readSession(target, tenant, session(id)))).toMatchObject({
        message_count: 1,
        total_message_count: 3,
        commit_count: 1,
        pending_tokens: 0,
      });
      const done = await settled(target, tenant, accepted.task_id);
      expect(done.result.memory_diff_uri, 'named even when nothing was written').toBe(
        `${accepted.archive_uri}/memory_diff.json`,
      );
      expect(okResult(await readSession(target, tenant, session(id))).last_commit_at).not.toBe('');
    },
  },
  {
    name: '…/context: 400 for a negative budget, 404 for a missing session; the overview, estimate and stats',
    covers: ['GET /api/v1/sessions/{session_id}/context'],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'context');
      errorOf(await as(target, tenant, 'GET', session(id, '/context?token_budget=1000')), 404, 'NOT_FOUND');
      okResult(await as(target, tenant, 'POST', session(id, '/messages'), text('user', 'one two three four')));
      errorOf(await as(target, tenant, 'GET', session(id, '/context?token_budget=-1')), 400, 'INVALID_ARGUMENT');
      const accepted = okResult(await as(target, tenant, 'POST', session(id, '/commit'), {}));
      await settled(target, tenant, accepted.task_id);
      okResult(await as(target, tenant, 'POST', session(id, '/messages'), text('user', 'five six')));
      const context = okResult(await as(target, tenant, 'GET', session(id, '/context?token_budget=32000')));
      // no archive summary with working memory off, 0.5.2's default (F41)
      expect(context.latest_archive_overview).toBe('');
      expect(context.pre_archive_abstracts).toEqual([]);
      expect(context.messages.map((m: { parts: Array<{ text: string }> }) => m.parts[0]?.text)).toEqual(['five six']);
      expect(typeof context.estimatedTokens).toBe('number');
      expect(context.stats).toMatchObject({ totalArchives: 1, failedArchives: 0 });
    },
  },
  {
    name: 'a commit’s task: its record, then completed with the memory it wrote (counted, named in memory_diff.json, searchable)',
    covers: [
      'POST /api/v1/sessions/{session_id}/commit',
      'GET /api/v1/tasks/{task_id}',
      'GET /api/v1/sessions/{session_id}',
      'GET /api/v1/content/read',
    ],
    async run(target) {
      const { tenant, id } = await freshSession(target, 'task');
      okResult(
        await as(target, tenant, 'POST', session(id, '/messages'), {
          role: 'user',
          content: 'Set up the build. Remember: the kestrel queue drains every ninety seconds. Thanks.',
        }),
      );
      const accepted = okResult(await as(target, tenant, 'POST', session(id, '/commit'), {}));
      const first = okResult(await as(target, tenant, 'GET', `/api/v1/tasks/${accepted.task_id}`));
      expect(first).toMatchObject({ task_id: accepted.task_id, task_type: 'session_commit', resource_id: id });
      for (const key of ['created_at', 'updated_at']) expect(typeof first[key]).toBe('number');
      for (const key of ['created_at_iso', 'updated_at_iso']) expect(typeof first[key]).toBe('string');
      const done = await settled(target, tenant, accepted.task_id);
      expect(done.status, JSON.stringify(done)).toBe('completed');
      expect(done.error).toBeNull();
      // {"memory_write": n}, not per category (F42)
      expect(Object.keys(done.result.memories_extracted)).toEqual(['memory_write']);
      expect(done.result.memories_extracted.memory_write).toBeGreaterThanOrEqual(1);
      expect(done.result).toMatchObject({ session_id: id, archive_uri: accepted.archive_uri });
      expect(done.result.memory_diff_uri).toBe(`${accepted.archive_uri}/memory_diff.json`);
      const diff = JSON.parse(
        okResult(
          await as(
            target,
            tenant,
            'GET',
            `/api/v1/content/read?uri=${encodeURIComponent(done.result.memory_diff_uri)}`,
          ),
        ),
      );
      expect(diff).toMatchObject({ archive_uri: accepted.archive_uri, operations: { updates: [], deletes: [] } });
      const add = diff.operations.adds.find((entry: { after: string }) => /kestrel queue drains/i.test(entry.after));
      expect(add, JSON.stringify(diff)).toBeDefined();
      expect(add.uri.startsWith(home(tenant, 'memories/'))).toBe(true);
      expect(typeof add.memory_type).toBe('string');
      expect(diff.summary.total_adds).toBe(diff.operations.adds.length);
      const record = okResult(await readSession(target, tenant, session(id)));
      expect(record.memories_extracted).toEqual({
        total: done.result.memories_extracted.memory_write,
        memory_write: done.result.memories_extracted.memory_write,
      });
      const memory = okResult(
        await as(target, tenant, 'GET', `/api/v1/content/read?uri=${encodeURIComponent(add.uri)}`),
      );
      expect(memory).toMatch(/kestrel queue drains/i);
      // Searchable soon after, not at once: 0.5.2 indexes the new memory's vector after the task completed (F42).
      await waitFor(
        async () => {
          const found = okResult(
            await as(target, tenant, 'POST', '/api/v1/search/find', {
              query: 'how often does the kestrel queue drain',
              target_uri: home(tenant, 'memories'),
              score_threshold: 0,
            }),
          );
          return found.memories.some((item: { uri: string }) => item.uri === add.uri);
        },
        { timeoutMs: 30_000, intervalMs: 250, what: `find to name ${add.uri}` },
      );
    },
  },
];
