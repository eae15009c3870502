/**
 * Capture planning, pure: decoded transcript messages in, what to send out.
 *
 * Kept apart from sending so that the rules that make capture exactly-once
 * can be tested without a server or a file:
 * - every decoded message becomes an item: either a wire message to send, or
 *   a skip (already acknowledged, empty after the privacy filter, assistant
 *   turns switched off). Skips count as acknowledged; nothing else does until
 *   the server (or the pending queue) took it;
 * - the privacy filter runs here, on every text, tool input and tool output,
 *   so no path can send an unfiltered message;
 * - batches hold at most 100 messages (the server's limit; 1 in serial mode);
 * - the cursor may only move over a contiguous acknowledged prefix: it
 *   resumes at the first record of the first unacknowledged message.
 *
 * @module
 */
import type { SessionMessage } from '../openviking/types.js';
import { recordFingerprint } from '../transcript/fingerprint.js';
import { sanitizeMessage } from '../transcript/index.js';
import type { DecodedMessage, PrivacyOptions } from '../transcript/index.js';

/** The server's `messages/batch` limit. */
export const MAX_BATCH = 100;

export type SkipReason = 'acknowledged' | 'empty' | 'assistant-off';

export interface PlanOptions {
  captureAssistantTurns: boolean;
  privacy: PrivacyOptions;
  /** `recordFingerprint`s of the records acknowledged earlier (ack.ts `ackedSet`). */
  acked: ReadonlySet<string>;
  /** After a rescan: every message up to and including this record id was acknowledged. */
  skipThrough?: string;
  /** The project's peer id, for messages the transcript did not attribute (DESIGN D24). */
  peerId?: string;
}

export interface PlannedItem {
  recordId: string;
  /** Id of the message's first transcript record (where a re-read must start to decode it again). */
  firstSourceId?: string;
  /** The filtered wire message; absent when skipped. */
  message?: SessionMessage;
  skip?: SkipReason;
}

export interface Batch {
  /** Item range `[start, end)`: the batch's messages plus the skips before them. */
  start: number;
  end: number;
  messages: SessionMessage[];
  recordIds: string[];
}

/** One item per decoded message, in order, filtered for privacy. */
export function planItems(messages: readonly DecodedMessage[], options: PlanOptions): PlannedItem[] {
  const skipEnd = options.skipThrough === undefined ? 0 : lastIndexOfRecord(messages, options.skipThrough) + 1;
  return messages.map((decoded, index) => {
    const item: PlannedItem = { recordId: decoded.recordId };
    if (decoded.sourceIds[0] !== undefined) item.firstSourceId = decoded.sourceIds[0];
    const skip = skipReason(decoded, index < skipEnd, options);
    if (skip !== undefined) item.skip = skip;
    else {
      const clean = sanitizeMessage(toWire(decoded, options.peerId), options.privacy);
      if (clean === undefined) item.skip = 'empty';
      else item.message = clean;
    }
    return item;
  });
}

function skipReason(decoded: DecodedMessage, beforeAck: boolean, options: PlanOptions): SkipReason | undefined {
  if (beforeAck || options.acked.has(recordFingerprint(decoded.recordId))) return 'acknowledged';
  if (decoded.role === 'assistant' && !options.captureAssistantTurns) return 'assistant-off';
  return undefined;
}

function lastIndexOfRecord(messages: readonly DecodedMessage[], recordId: string): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]?.recordId === recordId) return index;
  return -1;
}

/** The message as the server takes it: the decoder's bookkeeping keys dropped. */
function toWire(decoded: DecodedMessage, peerId: string | undefined): SessionMessage {
  const message: SessionMessage = { role: decoded.role, parts: decoded.parts };
  if (decoded.created_at !== undefined) message.created_at = decoded.created_at;
  const peer = decoded.peer_id ?? peerId;
  if (peer !== undefined) message.peer_id = peer;
  return message;
}

/** The next batch of at most `maxSize` messages from item `from`, or undefined when nothing is left to send. */
export function nextBatch(items: readonly PlannedItem[], from: number, maxSize: number): Batch | undefined {
  const batch: Batch = { start: from, end: from, messages: [], recordIds: [] };
  for (let index = from; index < items.length && batch.messages.length < Math.max(1, maxSize); index++) {
    const message = items[index]?.message;
    if (message === undefined) continue;
    batch.messages.push(message);
    batch.recordIds.push((items[index] as PlannedItem).recordId);
    batch.end = index + 1;
  }
  return batch.messages.length === 0 ? undefined : batch;
}

/**
 * The record index a re-read must start from so that `items[ackedEnd…]` are
 * decoded again; `consumed` (the decoder's) when every item is acknowledged.
 * Items are matched to records by their first source id, scanning forward so
 * a reused id cannot point backwards; an item without a findable id resumes
 * at the nearest earlier known position (re-decoding acknowledged messages
 * is harmless: they are skipped by record id).
 */
export function resumeRecordIndex(
  items: readonly PlannedItem[],
  ackedEnd: number,
  recordIds: readonly (string | undefined)[],
  consumed: number,
): number {
  if (ackedEnd >= items.length) return consumed;
  let position = 0;
  let known = 0;
  for (let index = 0; index <= ackedEnd; index++) {
    const id = items[index]?.firstSourceId;
    if (id === undefined) continue;
    const found = recordIds.indexOf(id, position);
    if (found === -1 || found >= consumed) continue;
    position = found;
    known = found;
  }
  return known;
}
