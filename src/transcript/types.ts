/**
 * Vocabulary of the transcript layer: what the decoders produce, what the
 * format adapters hand to the shared step assembler, and the reader's cursor.
 * No runtime code.
 *
 * Two host formats exist (CodeBuddy's OpenAI-Agents-style records and Claude
 * Code's `message`-wrapped records); both are reduced to the same
 * {@link TranscriptEvent} stream so that grouping, tool pairing and the
 * "do not emit half a step" rule live in one place (assemble.ts).
 *
 * @module
 */
import type { SessionMessage } from '../openviking/types.js';

export type TranscriptFormat = 'codebuddy' | 'claude-code';

/** One OpenViking message plus where in the transcript it came from. */
export interface DecodedMessage extends SessionMessage {
  /**
   * Stable dedupe key: `<first source record id>@<its timestamp>`. The id alone
   * is not unique: CodeBuddy reuses a model response id for the text and the
   * calls of one response, and a resumed session can reuse `chatcmpl-*` ids.
   * Strip this (and `sourceIds`) before sending; the server ignores unknown keys
   * but they are not part of the wire contract.
   */
  recordId: string;
  /** Ids of every transcript record folded into this message, in file order. */
  sourceIds: string[];
}

export interface DecodeResult {
  messages: DecodedMessage[];
  /**
   * How many leading input records are fully decoded. Records from this index
   * on belong to a step whose tool result is not in the file yet; feed them
   * again (reader.ts `cursorAfterRecords(result, consumed)`) once it grows.
   * Equals the input length when nothing is held back.
   */
  consumed: number;
}

/** Fields every event carries. `index` is the record's position in the decoder input. */
export interface EventBase {
  index: number;
  /** Transcript record id (`id` / `uuid`); '' when the record had none. */
  id: string;
  /** ISO-8601 time of the record, when it had one. */
  timestamp?: string;
}

/** Format adapters turn records into these; assemble.ts turns these into messages. */
export type TranscriptEvent =
  | (EventBase & { kind: 'user-text'; texts: string[] })
  | (EventBase & { kind: 'assistant-text'; stepKey: string; texts: string[] })
  | (EventBase & {
      kind: 'tool-call';
      stepKey: string;
      callId: string;
      name: string;
      input: Record<string, unknown> | null;
    })
  | (EventBase & { kind: 'tool-result'; callId: string; name?: string; output: string; isError: boolean })
  /** A conversational record that was dropped on purpose (meta prompt, compaction): the conversation moved on. */
  | (EventBase & { kind: 'moved-on' });

/** Where an incremental read of a transcript file stopped (reader.ts). */
export interface TranscriptCursor {
  path: string;
  /** `<dev>:<ino>` of the file the cursor belongs to. */
  fileId: string;
  /** File size at the read that made the cursor. */
  size: number;
  /** Byte offset just after the last consumed complete line. */
  offset: number;
  /** `id` (CodeBuddy) or `uuid` (Claude Code) of the last record before `offset`, when it had one. */
  lastRecordId?: string;
  /** Start of the last complete line before `offset` (0 when `offset` is 0). */
  lastLineStart: number;
  /** `<fnv1a of its first 256 bytes>:<its length>`; '' when `offset` is 0. */
  lastLineHash: string;
}

/** Where a returned record sits in the file. */
export interface RecordSpan {
  start: number;
  /** Offset just after the record's newline. */
  end: number;
  hash: string;
  id?: string;
}
