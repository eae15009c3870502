/**
 * What a session's transcript holds past its capture cursor, read, decoded
 * and planned (plan.ts: filtered for privacy, acknowledged records skipped):
 * the capture pass sends it, and an import's dry run counts it (DESIGN D35),
 * so both see exactly the same messages.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import { decodeTranscriptRecords, readTranscriptTail } from '../transcript/index.js';
import type { TranscriptCursor, TranscriptFormat, TranscriptRead } from '../transcript/index.js';
import { ackedSet } from './ack.js';
import { planItems, type PlannedItem } from './plan.js';
import type { CaptureState } from './state.js';

/** What to read: the transcript, whose it is, how much per read. */
export interface TailJob {
  transcriptPath: string;
  /** A sub-agent's own transcript (Claude Code marks all its records as sidechain). */
  subagent: boolean;
  /** The project's peer id (DESIGN D24), put on every message as `peer_id`. */
  peerId?: string;
  /** Read about this many bytes (the first line past it still whole); unset: to the end. */
  readLimitBytes?: number;
}

export interface PlannedTail {
  read: TranscriptRead;
  items: PlannedItem[];
  /** Records the decoder used; the rest (a step still waiting for a tool's result) is read again next time. */
  consumed: number;
  format?: TranscriptFormat;
  /** The cursor did not fit the file (replaced, shrunk, another path): read from its start. */
  rescanned: boolean;
}

/** Reads from `state`'s cursor and plans what it found; `error` when the file cannot be read. */
export async function planTail(
  state: CaptureState,
  job: TailJob,
  settings: Pick<Settings, 'captureAssistantTurns' | 'captureToolMaxChars'>,
): Promise<PlannedTail | { error: string }> {
  const read = await readTranscriptTail(
    job.transcriptPath,
    cursorFor(state.cursor, job.transcriptPath),
    job.readLimitBytes === undefined ? {} : { maxBytes: job.readLimitBytes },
  );
  if (read.error !== undefined) return { error: read.error };
  const rescanned = read.rescanned || (state.cursor !== undefined && state.cursor.path !== job.transcriptPath);
  const decoded = decodeTranscriptRecords(read.records, {
    ...(state.format ? { format: state.format } : {}),
    includeSidechain: job.subagent,
  });
  const items = planItems(decoded.messages, {
    captureAssistantTurns: settings.captureAssistantTurns,
    privacy: { maxToolOutputChars: settings.captureToolMaxChars },
    acked: ackedSet(state),
    ...(job.peerId !== undefined ? { peerId: job.peerId } : {}),
    ...(rescanned && state.lastAckedRecordId !== undefined ? { skipThrough: state.lastAckedRecordId } : {}),
  });
  return {
    read,
    items,
    consumed: decoded.consumed,
    rescanned,
    ...(decoded.format !== undefined ? { format: decoded.format } : {}),
  };
}

function cursorFor(cursor: TranscriptCursor | undefined, path: string): TranscriptCursor | undefined {
  return cursor?.path === path ? cursor : undefined;
}
