/**
 * Repairs the one window where handing a batch to the pending queue is not
 * atomic: the queue file is written, then the capture state acknowledges
 * the batch. A crash in between left an `enqueueIntent` in the state:
 * - the queue holds the entry (waiting, claimed, or being replayed now): the
 *   batch counts as queued; if it was also the inflight batch, that record
 *   now belongs to the queued entry (replay resolves it);
 * - the queue does not hold it: it was never queued, and the transcript,
 *   whose cursor did not move, still has it for the next plan.
 * Runs at the start of every writer job (capture pass and replay).
 *
 * @module
 */
import { keyPrefixOf, listDir, parseEntryName, queuePaths } from '../store/queueFiles.js';
import { acknowledge } from './ack.js';
import { queueDirOf } from './queueing.js';
import type { SessionWriter } from './writer.js';

export async function recoverEnqueueIntent(writer: SessionWriter): Promise<void> {
  const intent = writer.state.enqueueIntent;
  if (intent === undefined) return;
  const base = await queuedBaseOf(writer, intent.fingerprint);
  if (base !== undefined) {
    acknowledge(writer.state, intent.recordIds, 'queued', writer.env.now());
    if (!writer.state.queued.includes(base)) writer.state.queued.push(base);
    if (writer.state.inflight?.fingerprint === intent.fingerprint) writer.state.inflight.queued = true;
  }
  writer.state.enqueueIntent = undefined;
  writer.env.log.debug('enqueue intent recovered', { session: writer.ovSessionId, queued: base !== undefined });
  await writer.save();
}

/** The base name of the queue entry (waiting or claimed) whose key starts like `fingerprint`. */
async function queuedBaseOf(writer: SessionWriter, fingerprint: string): Promise<string | undefined> {
  const prefix = keyPrefixOf(fingerprint);
  const names = await listDir(queuePaths(queueDirOf(writer.env.dataDir)).pendingDir).catch(() => []);
  for (const name of names) {
    const parsed = parseEntryName(name);
    if (parsed?.keyPrefix === prefix) return parsed.base;
  }
  return undefined;
}
