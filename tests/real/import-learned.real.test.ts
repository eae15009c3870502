/**
 * Importing past sessions (D35) and what they taught (D36) against the REAL
 * OpenViking server: two CodeBuddy transcripts left on disk before the
 * plugin was installed (written where the host keeps them, an hour old),
 * `node scripts/hook.mjs import` in the workspace as a user's shell runs
 * it, then the server's real extraction results read by the plugin. It
 * proves:
 * - each session lands once, in the session id live capture uses, and is
 *   committed; a second import sends and commits nothing;
 * - F24/F25 (read from 0.4's code) hold on 0.5.2 where the plugin reads
 *   them, with 0.5.2's counts (F29): the task record of each noted commit,
 *   the session record's running total and the commit's memory_diff.json;
 * - `learned` names the memory the server extracted (URI, first line, its
 *   category from the diff) and says which session taught nothing; what
 *   it listed is not said again by the next session start (the start's own
 *   line on a real extraction: tests/real/recall.real.test.ts).
 *
 * @module
 */
import { utimesSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitNote } from '../../src/store/learned.js';
import { ov, settledTask } from './support/http.js';
import { sharedServers } from './support/servers.js';
import { storedSession, type StoredSession } from './support/stored.js';
import { createRealWorld, devIdentity, type HostSession, type RealWorld } from './support/world.js';

const { dev } = sharedServers();

const FACT = 'the puffin exporter writes its metrics to port 9464';

let world: RealWorld;
let taught: HostSession;
let idle: HostSession;
let firstRun: string;
let secondRun: string;
let stored: Map<string, StoredSession>;
let commits: CommitNote[];
const tasks = new Map<string, any>();

/** A transcript left by an earlier session: its turns, its file an hour old (not live, D35). */
function pastSession(turns: ReadonlyArray<readonly [string, string]>): HostSession {
  const session = world.session();
  for (const [user, assistant] of turns) session.turn(user, assistant);
  const hourAgo = (Date.now() - 60 * 60_000) / 1000;
  utimesSync(session.p.transcriptPath, hourAgo, hourAgo);
  return session;
}

beforeAll(async () => {
  world = createRealWorld({ url: dev.url, identity: devIdentity('import') });
  taught = pastSession([
    ['Wire up the puffin exporter.', 'Wired.'],
    [`Remember: ${FACT}. Good.`, 'Noted the port.'],
  ]);
  idle = pastSession([['List the open pull requests.', 'There are two.']]);
  const first = await world.command(['import']);
  expect(first.exitCode, first.stdout + first.stderr).toBe(0);
  firstRun = first.stdout;
  commits = await world.commits(2);
  await Promise.all(
    commits.map(async (commit) =>
      tasks.set(commit.ovSessionId, await settledTask(dev.url, world.speaker, commit.taskId)),
    ),
  );
  secondRun = (await world.command(['import'])).stdout;
  await world.settle();
  stored = new Map(
    await Promise.all(
      [taught, idle].map(
        async (session) => [session.ovId, (await storedSession(dev.url, world.speaker, session.ovId))!] as const,
      ),
    ),
  );
});

afterAll(async () => {
  await world?.dispose();
});

describe('import on the real server', () => {
  it('lands each past session once in its live-capture id, committed; a second import sends nothing', () => {
    expect(firstRun).toMatch(/imported 2 sessions · 3 turns · 6 messages/);
    expect(stored.get(taught.ovId)!.messages.map((message) => message.text)).toEqual([
      'Wire up the puffin exporter.',
      'Wired.',
      `Remember: ${FACT}. Good.`,
      'Noted the port.',
    ]);
    expect(stored.get(idle.ovId)!.messages.map((message) => message.text)).toEqual([
      'List the open pull requests.',
      'There are two.',
    ]);
    for (const session of stored.values()) expect(session.commits).toBe(1);
    expect(secondRun).toContain('nothing new to import');
    expect(new Set(commits.map((commit) => commit.ovSessionId))).toEqual(new Set([taught.ovId, idle.ovId]));
    expect(stored.get(taught.ovId)!.totalMessages + stored.get(idle.ovId)!.totalMessages).toBe(6);
  });

  it('reads the task record, the session total and the memory diff where F24/F25 say, with 0.5.2 counts', async () => {
    const task = tasks.get(taught.ovId);
    expect(task).toMatchObject({
      task_type: 'session_commit',
      status: 'completed',
      resource_id: taught.ovId,
      error: null,
      result: { session_id: taught.ovId, memories_extracted: { memory_write: 1 } },
    });
    expect(task.result.archive_uri).toMatch(new RegExp(`/sessions/${taught.ovId}/history/archive_001$`));
    expect(task.result.memory_diff_uri).toBe(`${task.result.archive_uri}/memory_diff.json`);
    const none = tasks.get(idle.ovId);
    expect(none.status).toBe('completed');
    expect(none.result.memories_extracted).toEqual({});
    // Unlike F24's 0.4 reading, 0.5.2 writes a diff for a commit that extracted nothing: an empty one (F29).
    const empty = JSON.parse(
      (
        await ov<string>(
          dev.url,
          world.speaker,
          `/api/v1/content/read?uri=${encodeURIComponent(none.result.memory_diff_uri)}`,
        )
      ).result,
    );
    expect(empty.operations).toEqual({ adds: [], updates: [], deletes: [] });
    expect(stored.get(taught.ovId)!.memoriesExtracted).toEqual({ total: 1, memory_write: 1 });
    const read = await ov<string>(
      dev.url,
      world.speaker,
      `/api/v1/content/read?uri=${encodeURIComponent(task.result.memory_diff_uri)}`,
    );
    const diff = JSON.parse(read.result);
    expect(diff).toMatchObject({
      archive_uri: task.result.archive_uri,
      operations: { updates: [], deletes: [] },
      summary: { total_adds: 1, total_updates: 0, total_deletes: 0 },
    });
    expect(diff.operations.adds).toEqual([
      {
        uri: `viking://user/${world.user}/peers/${world.peer}/memories/preferences/${world.peer}/puffin_exporter_writes.md`,
        memory_type: 'preferences',
        after: `- ${FACT}`,
      },
    ]);
  });

  it('learned names the extracted memory and its category, and the session that taught nothing', async () => {
    const listed = await world.command(['learned']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const memory = `viking://user/${world.user}/peers/${world.peer}/memories/preferences/${world.peer}/puffin_exporter_writes.md`;
    expect(listed.stdout).toContain(`${taught.ovId}  (1 commit; 1 memory in all on the server)`);
    expect(listed.stdout).toMatch(/ UTC {2}1 memory \(preferences 1\)\n/);
    expect(listed.stdout).toContain(`      ${memory} — - ${FACT}`);
    expect(listed.stdout).not.toContain('memory_write');
    expect(listed.stdout).toContain(`${idle.ovId}  (1 commit; 0 memories in all on the server)`);
    expect(listed.stdout).toMatch(/ UTC {2}no memory extracted\n/);
  });

  it('the next session start of the folder says nothing learned was not already listed', async () => {
    const next = world.session();
    const start = await next.fire('SessionStart', next.p.sessionStart());
    expect(start.merged.systemMessages.join('\n')).not.toContain('OpenViking learned');
  });
});
