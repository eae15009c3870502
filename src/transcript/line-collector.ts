/**
 * Splits positioned chunks of a JSONL file into parsed records, remembering
 * where each complete line starts and ends and a content-free fingerprint of
 * it (so a later read can check it is still there). Lines may span chunks;
 * bytes after the last newline wait for the next chunk.
 *
 * @module
 */
import { fnv1a } from './fingerprint.js';
import { stringField } from './narrow.js';
import type { RecordSpan, TranscriptCursor } from './types.js';
import { isRecord, parseJson } from '../util/json.js';

/** How much of a line's head goes into its fingerprint. */
export const HEAD_BYTES = 256;
export const NEWLINE = 0x0a;

/** `<fnv1a of the line's first HEAD_BYTES bytes>:<its length>`. */
export function lineHash(head: Buffer, length: number): string {
  return `${fnv1a(head.toString('latin1'))}:${length}`;
}

/** Collects complete lines from positioned chunks. */
export class LineCollector {
  readonly records: unknown[] = [];
  readonly spans: RecordSpan[] = [];
  skippedLines = 0;
  /** Offset just after the last complete line. */
  end: number;
  lastLineStart: number;
  lastLineHash: string;
  lastRecordId: string | undefined;
  private pieces: Buffer[] = [];

  constructor(start: TranscriptCursor) {
    this.end = start.offset;
    this.lastLineStart = start.lastLineStart;
    this.lastLineHash = start.lastLineHash;
    this.lastRecordId = start.lastRecordId;
  }

  /** Feeds the next chunk; returns false once `stopAfter` bytes past `from` are consumed. */
  feed(chunk: Buffer, from: number, stopAfter: number): boolean {
    let scan = 0;
    for (let newline = chunk.indexOf(NEWLINE, scan); newline !== -1; newline = chunk.indexOf(NEWLINE, scan)) {
      this.pieces.push(chunk.subarray(scan, newline + 1));
      const line = this.pieces.length === 1 ? (this.pieces[0] as Buffer) : Buffer.concat(this.pieces);
      this.pieces = [];
      this.take(line);
      scan = newline + 1;
      if (this.end - from >= stopAfter) return false;
    }
    if (scan < chunk.length) this.pieces.push(chunk.subarray(scan));
    return true;
  }

  private take(line: Buffer): void {
    const start = this.end;
    this.end = start + line.length;
    this.lastLineStart = start;
    this.lastLineHash = lineHash(line.subarray(0, HEAD_BYTES), line.length);
    const text = line.toString('utf8');
    if (text.trim() === '') return;
    const value = parseJson(text);
    // Junk, a torn write, or JSON that is no record: skipped, counted.
    if (!isRecord(value)) {
      this.skippedLines += 1;
      return;
    }
    const id = stringField(value, 'id') ?? stringField(value, 'uuid');
    this.lastRecordId = id;
    const span: RecordSpan = { start, end: this.end, hash: this.lastLineHash };
    if (id !== undefined) span.id = id;
    this.records.push(value);
    this.spans.push(span);
  }
}
