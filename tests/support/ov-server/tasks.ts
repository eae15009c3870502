/**
 * Commit tasks and memory extraction, as the real server runs phase 2 of a
 * commit (OpenViking 6e944cc, and 0.5.2 where it differs: `session.py` `_run_memory_extraction`,
 * `service/task_tracker.py` `TaskRecord.to_dict`, `compressor_v3.py`
 * `_make_memory_diff`; DESIGN F24, F25):
 *
 * - a task is `pending`, then `completed` or `failed`; `GET /api/v1/tasks/{id}`
 *   answers `to_dict()`: `created_at`/`updated_at` as epoch seconds (floats)
 *   plus their `_iso` forms, `resource_id` the session id, `stage`, `meta`,
 *   `result`, `error` (a string once failed). A task past its retention
 *   answers 404 "Task not found or expired".
 * - a completed task's `result.memories_extracted` is 0.5.2's
 *   `{"memory_write": n}` (`{}` when nothing was written; not per category
 *   as 6e944cc counted: docs/host-facts.md F42); `memory_diff_uri` always
 *   names `<archive_uri>/memory_diff.json` (`{archive_uri, trace_id,
 *   extracted_at, operations: {adds, updates, deletes}, skipped_operations,
 *   summary}`; an add's `memory_type` is the category); the session's own
 *   `memories_extracted` adds them up under `total` and `memory_write`.
 *
 * Extraction is deterministic: with `extractOnCommit`, one event memory per
 * peer of the archived messages (peers.ts); without it, none. By default a
 * task completes inside the commit request (as the old test server did);
 * `hold` keeps new tasks pending until `release()`, and `failNext` makes the
 * next tasks fail, for tests of what a session taught.
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { ArchiveRecord, StoredMessage } from './types.js';
import type { Vfs } from './vfs.js';
import { joinUri } from './uri.js';
import { partText } from './messages.js';

export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface TaskRecord {
  task_id: string;
  task_type: 'session_commit';
  status: TaskStatus;
  created_at: number;
  updated_at: number;
  processing_seconds: number | null;
  resource_id: string;
  meta: Record<string, unknown>;
  stage: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

/** What phase 2 needs of a session: whose it is, and the counters it adds to. */
export interface ExtractionTarget {
  account: string;
  user: string;
  sessionId: string;
  /** The session's `memories_extracted`: `total` plus per category. */
  memoriesExtracted: Record<string, number>;
}

/** The switches a test turns (the handle's `extraction`). */
export interface ExtractionControl {
  /** New tasks stay `pending` until `release()`. */
  hold: boolean;
  /** The next `count` tasks to run fail with `message`. */
  failNext(message: string, count?: number): void;
  /** Runs every held task now (completed, or failed as `failNext` said); returns how many ran. */
  release(): number;
  /** The task is gone as if past the server's retention (404). */
  expire(taskId: string): void;
  /** Every task, oldest first (copies). */
  tasks(): TaskRecord[];
}

interface Held {
  task: TaskRecord;
  run: () => Record<string, unknown>;
}

export class TaskStore implements ExtractionControl {
  hold = false;
  private readonly records = new Map<string, TaskRecord>();
  private readonly held: Held[] = [];
  private readonly failures: string[] = [];

  constructor(
    private readonly now: () => number,
    private readonly vfs: Vfs,
    private readonly extract: boolean,
  ) {}

  /** Records the task of a commit that archived `archive`; runs its extraction now unless held. */
  commitTask(target: ExtractionTarget, archive: ArchiveRecord): TaskRecord {
    const at = this.now() / 1000;
    const task: TaskRecord = {
      task_id: randomUUID(),
      task_type: 'session_commit',
      status: 'pending',
      created_at: at,
      updated_at: at,
      processing_seconds: null,
      resource_id: target.sessionId,
      meta: {},
      stage: null,
      result: null,
      error: null,
    };
    this.records.set(task.task_id, task);
    const held = { task, run: () => this.extractFrom(target, archive) };
    if (this.hold) this.held.push(held);
    else this.finish(held);
    return task;
  }

  /** `GET /api/v1/tasks/{id}`: the record as `to_dict()` shapes it, or undefined (404). */
  view(taskId: string): Record<string, unknown> | undefined {
    const task = this.records.get(taskId);
    if (task === undefined) return undefined;
    return {
      ...structuredClone(task),
      created_at_iso: new Date(task.created_at * 1000).toISOString(),
      updated_at_iso: new Date(task.updated_at * 1000).toISOString(),
    };
  }

  failNext(message: string, count = 1): void {
    for (let i = 0; i < count; i++) this.failures.push(message);
  }

  release(): number {
    const ready = this.held.splice(0);
    for (const held of ready) this.finish(held);
    return ready.length;
  }

  expire(taskId: string): void {
    this.records.delete(taskId);
  }

  tasks(): TaskRecord[] {
    return [...this.records.values()].map((task) => structuredClone(task));
  }

  private finish(held: Held): void {
    const { task } = held;
    task.updated_at = this.now() / 1000;
    const failure = this.failures.shift();
    if (failure !== undefined) {
      task.status = 'failed';
      task.error = failure;
      return;
    }
    task.result = held.run();
    task.status = 'completed';
    task.stage = 'completed';
    task.processing_seconds = task.updated_at - task.created_at;
  }

  /** Phase 2: the memories, the diff beside the archive, the session's counters; the task's result. */
  private extractFrom(target: ExtractionTarget, archive: ArchiveRecord): Record<string, unknown> {
    const adds = this.extract ? this.writeMemories(target, archive) : [];
    const counts: Record<string, number> = adds.length > 0 ? { memory_write: adds.length } : {};
    for (const [kind, count] of Object.entries(counts)) {
      target.memoriesExtracted[kind] = (target.memoriesExtracted[kind] ?? 0) + count;
      target.memoriesExtracted['total'] = (target.memoriesExtracted['total'] ?? 0) + count;
    }
    const diffUri = `${archive.uri}/memory_diff.json`;
    const diff = {
      archive_uri: archive.uri,
      trace_id: null,
      extracted_at: new Date(this.now()).toISOString(),
      operations: { adds, updates: [], deletes: [] },
      skipped_operations: [],
      summary: { total_adds: adds.length, total_updates: 0, total_deletes: 0, total_skipped: 0 },
    };
    this.vfs.write(target.account, diffUri, { content: JSON.stringify(diff, null, 2) }, this.isoNow());
    return {
      session_id: target.sessionId,
      archive_uri: archive.uri,
      memories_extracted: counts,
      session_skills_extracted: 0,
      session_skill_uris: [],
      memory_extraction: { skipped: 0, skipped_operations: [] },
      usage_events_extracted: 0,
      memory_diff_uri: diffUri,
    };
  }

  /**
   * One event memory per peer of the archive, holding its messages' text.
   * Messages with a `peer_id` go to that peer's memories
   * (`peers/<peer>/memories/events/`), the rest to the user's own (peers.ts).
   */
  private writeMemories(
    target: ExtractionTarget,
    archive: ArchiveRecord,
  ): Array<{ uri: string; memory_type: string; after: string }> {
    const name = `${target.sessionId}-archive_${String(archive.index).padStart(3, '0')}.md`;
    const byPeer = new Map<string, string[]>();
    for (const message of archive.messages) {
      const key = message.peer_id ?? '';
      byPeer.set(key, [...(byPeer.get(key) ?? []), textOf(message)]);
    }
    const adds: Array<{ uri: string; memory_type: string; after: string }> = [];
    for (const [peer, texts] of byPeer) {
      const content = texts.filter((text) => text.trim() !== '').join('\n');
      const folder = peer === '' ? ['memories'] : ['peers', peer, 'memories'];
      const uri = joinUri(['user', target.user, ...folder, 'events', name]);
      this.vfs.write(target.account, uri, { content }, this.isoNow());
      adds.push({ uri, memory_type: 'events', after: content });
    }
    return adds;
  }

  private isoNow(): string {
    return new Date(this.now()).toISOString();
  }
}

function textOf(message: StoredMessage): string {
  return message.parts.map(partText).join(' ');
}
