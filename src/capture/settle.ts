/**
 * First thing every writer job does: decide what became of an inflight
 * batch a previous job left behind (inflight.ts explains why this keeps
 * sends exactly-once). Nothing else of the session is sent or committed
 * until this says `clear`.
 *
 * @module
 */
import { keyPrefixOf, parseEntryName } from '../store/queueFiles.js';
import { acknowledge } from './ack.js';
import { resolveInflight } from './inflight.js';
import { hasQueuedWrites } from './queueing.js';
import type { SessionWriter } from './writer.js';

/**
 * - `clear`: no inflight batch (any found was resolved and recorded).
 * - `queued`: the inflight batch waits in the pending queue; its replay
 *   resolves it, so the session's new writes must queue behind it.
 * - `blocked`: the server cannot be asked; send nothing now.
 */
export type Settlement = 'clear' | 'queued' | 'blocked';

export async function settleInflight(writer: SessionWriter): Promise<Settlement> {
  const inflight = writer.state.inflight;
  if (inflight === undefined) return 'clear';
  if (inflight.queued && (await entryWaits(writer, inflight.fingerprint))) return 'queued';
  // Sent to another server or identity than the configured one: only that one can say what became of it (D33).
  if (inflight.target !== undefined && inflight.target !== writer.env.target.id) {
    writer.env.log.debug('inflight batch belongs to another server or identity; the session waits', {
      session: writer.ovSessionId,
    });
    return 'blocked';
  }
  const resolution = await resolveInflight(writer);
  if (resolution === undefined) return 'clear';
  if (resolution.kind === 'unknown') {
    writer.env.log.debug('inflight batch unresolved', {
      session: writer.ovSessionId,
      error: resolution.failure.message,
    });
    return 'blocked';
  }
  // A queued batch was acknowledged when it was queued; only a direct send is acknowledged here.
  if (resolution.kind === 'applied' && !inflight.queued)
    acknowledge(writer.state, inflight.recordIds, 'sent', writer.env.now());
  writer.state.inflight = undefined;
  writer.env.log.debug('inflight batch resolved', { session: writer.ovSessionId, outcome: resolution.kind });
  return (await writer.save()) ? 'clear' : 'blocked';
}

async function entryWaits(writer: SessionWriter, fingerprint: string): Promise<boolean> {
  if (!(await hasQueuedWrites(writer))) return false;
  const prefix = keyPrefixOf(fingerprint);
  return writer.state.queued.some((base) => parseEntryName(`${base}.json`)?.keyPrefix === prefix);
}
