/**
 * Commit tasks and memory extraction (DESIGN F24, F25, F42; OpenViking
 * 6e944cc and 0.5.2 `session.py`, `task_tracker.py`, `compressor_v3.py`):
 * the task record's shape, per-commit `memories_extracted` (0.5.2's
 * `memory_write`), the session's running total, `memory_diff.json` beside the archive, and the switches tests use
 * (held, failed, expired tasks).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOvServer, type OvTestServer } from '../support/ov-server/index.js';
import { clientFor } from './http-client.js';

let server: OvTestServer;
let api: ReturnType<typeof clientFor>;
let sid: string;
let n = 0;

beforeAll(async () => {
  server = await startOvServer({ extractOnCommit: true });
  api = clientFor(server.url, { 'X-OpenViking-User': 'u1' });
});
afterAll(() => server.close());
beforeEach(() => {
  sid = `cb-task-${++n}`;
  server.extraction.hold = false;
});

const path = (suffix = ''): string => `/api/v1/sessions/${sid}${suffix}`;

async function commitTwoPeers(): Promise<{ taskId: string; archiveUri: string }> {
  await api.post(path('/messages/batch'), {
    messages: [
      { role: 'user', content: 'we chose sqlite', peer_id: 'github.com-acme-app' },
      { role: 'assistant', content: 'noted: sqlite' },
    ],
  });
  const committed = (await api.post(path('/commit'), {})).json.result;
  return { taskId: committed.task_id, archiveUri: committed.archive_uri };
}

describe('commit tasks', () => {
  it('a completed task: to_dict shape, {memory_write: n} of this commit (0.5.2), memory_diff.json beside the archive', async () => {
    const { taskId, archiveUri } = await commitTwoPeers();
    const task = (await api.get(`/api/v1/tasks/${taskId}`)).json.result;
    expect(task).toMatchObject({
      task_id: taskId,
      task_type: 'session_commit',
      status: 'completed',
      stage: 'completed',
      resource_id: sid,
      error: null,
      result: {
        session_id: sid,
        archive_uri: archiveUri,
        memories_extracted: { memory_write: 2 },
        memory_diff_uri: `${archiveUri}/memory_diff.json`,
      },
    });
    expect(typeof task.created_at).toBe('number');
    expect(task.created_at_iso).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(task.result.memories_extracted).not.toHaveProperty('total');
    const diff = JSON.parse(
      (await api.get(`/api/v1/content/read?uri=${encodeURIComponent(`${archiveUri}/memory_diff.json`)}`)).json.result,
    );
    expect(diff.summary).toEqual({ total_adds: 2, total_updates: 0, total_deletes: 0, total_skipped: 0 });
    expect(diff.skipped_operations).toEqual([]);
    expect(diff.operations.adds.map((add: { uri: string }) => add.uri)).toEqual([
      `viking://user/u1/peers/github.com-acme-app/memories/events/${sid}-archive_001.md`,
      `viking://user/u1/memories/events/${sid}-archive_001.md`,
    ]);
    expect(diff.operations.adds[0]).toMatchObject({ memory_type: 'events', after: 'we chose sqlite' });
  });

  it("the session's memories_extracted adds every commit up under total and memory_write", async () => {
    await commitTwoPeers();
    await api.post(path('/messages'), { role: 'user', content: 'second' });
    await api.post(path('/commit'), {});
    expect((await api.get(path())).json.result.memories_extracted).toEqual({ total: 3, memory_write: 3 });
  });

  it('held tasks stay pending until released; failNext fails the next one with its error', async () => {
    server.extraction.hold = true;
    server.extraction.failNext('VLM_FAILED: model unavailable');
    const first = await commitTwoPeers();
    await api.post(path('/messages'), { role: 'user', content: 'again' });
    const second = (await api.post(path('/commit'), {})).json.result.task_id;
    expect((await api.get(`/api/v1/tasks/${first.taskId}`)).json.result).toMatchObject({
      status: 'pending',
      result: null,
    });
    expect(server.extraction.release()).toBe(2);
    expect((await api.get(`/api/v1/tasks/${first.taskId}`)).json.result).toMatchObject({
      status: 'failed',
      error: 'VLM_FAILED: model unavailable',
      result: null,
    });
    expect((await api.get(`/api/v1/tasks/${second}`)).json.result).toMatchObject({
      status: 'completed',
      result: { memories_extracted: { memory_write: 1 } },
    });
    expect((await api.get(path())).json.result.memories_extracted).toEqual({ total: 1, memory_write: 1 });
  });

  it('an expired task answers 404 "Task not found or expired"', async () => {
    const { taskId } = await commitTwoPeers();
    server.extraction.expire(taskId);
    const gone = await api.get(`/api/v1/tasks/${taskId}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error).toMatchObject({ code: 'NOT_FOUND', message: 'Task not found or expired' });
  });
});

describe('without extractOnCommit', () => {
  it('a task completes with no memories, its memory_diff.json adding none', async () => {
    const plain = await startOvServer();
    try {
      const papi = clientFor(plain.url, {});
      await papi.post('/api/v1/sessions/s1/messages', { role: 'user', content: 'x' });
      const taskId = (await papi.post('/api/v1/sessions/s1/commit', {})).json.result.task_id;
      const task = (await papi.get(`/api/v1/tasks/${taskId}`)).json.result;
      expect(task.result.memories_extracted).toEqual({});
      const diff = JSON.parse(
        (await papi.get(`/api/v1/content/read?uri=${encodeURIComponent(task.result.memory_diff_uri)}`)).json.result,
      );
      expect(diff.operations).toEqual({ adds: [], updates: [], deletes: [] });
      expect((await papi.get('/api/v1/sessions/s1')).json.result.memories_extracted).toEqual({ total: 0 });
    } finally {
      await plain.close();
    }
  });
});
