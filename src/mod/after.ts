/**
 * The work a stage leaves for after its answer (`afterAnswer`: the status
 * and why records, the start answer kept for a repeated delivery), run by
 * the hooks module once the host has the answer (D30). One at a time, in
 * the order handed over: each task runs against the file snapshot until it
 * misses nothing (it reads before it writes: the why record is appended to
 * what the file holds), then the files it wrote are written with `$.fs`.
 * What the answer's own network phase queued (the start's user-space cache,
 * profile/fetch.ts; a recall writes what it learned in a task of its own,
 * recall/known.ts) is written first, so the look again that follows reads
 * it back and the next decision finds it held (files/fetch.ts
 * `revalidate`): no round of its own.
 * A failure only leaves a record out, as in the hook commands, and goes to
 * the host's debug log.
 *
 * @module
 */
import { errorMessage } from '../util/errors.js';
import { flushWrites, revalidate, settle } from './files/fetch.js';
import { debugNote } from './debugNote.js';
import type { Engine } from './host.js';

let queue: Promise<void> = Promise.resolve();

/**
 * Queues `tasks` behind what is already queued, and the look again at what
 * the decisions read (files/fetch.ts: all but the switch files waited for
 * this); resolves once it is done and written.
 */
export function runAfterAnswer($: Engine, tasks: ReadonlyArray<() => unknown>): Promise<void> {
  queue = queue.then(() => runTasks($, tasks));
  return queue;
}

async function runTasks($: Engine, tasks: ReadonlyArray<() => unknown>): Promise<void> {
  try {
    // What the answer's own network phase queued (the start's cache) goes out first, so the look again reads it back.
    await flushQueued($);
    await revalidate($, 'decide');
    if (tasks.length === 0) return;
    await revalidate($, 'record');
    for (const task of tasks) {
      await settle($, 'record', () => {
        // Each task does its file work before its first await: what it returns is only awaited for its errors.
        const done = task();
        if (done instanceof Promise) done.catch(() => undefined);
      }).catch((error: unknown) => debugNote($, `a record was left out: ${errorMessage(error)}`));
    }
    await flushQueued($);
  } catch (error) {
    debugNote($, `after the answer: ${errorMessage(error)}`);
  }
}

async function flushQueued($: Engine): Promise<void> {
  for (const failed of await flushWrites($)) debugNote($, `a file was not written: ${failed}`);
}
