import { appendFileSync, mkdtempSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeCodeBuddyRecords } from '../../src/transcript/decode.js';
import {
  cursorAfterRecords,
  cursorAtEnd,
  readTranscriptTail,
  type ReadableFile,
  type TranscriptCursor,
} from '../../src/transcript/reader.js';

const sandbox = mkdtempSync(join(tmpdir(), 'ov-transcript-reader-'));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
let fileCount = 0;
const newPath = () => join(sandbox, `t${++fileCount}.jsonl`);

const line = (id: string, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ id, type: 'message', ...extra })}\n`;
const ids = (records: unknown[]) => records.map((r) => (r as { id: string }).id);

/** Opens files for real and counts the bytes the reader pulls through them. */
function countingOpen() {
  const counter = { bytes: 0 };
  const openFile = async (path: string): Promise<ReadableFile> => {
    const handle = await open(path, 'r');
    return {
      stat: (options) => handle.stat(options),
      read: async (buffer, offset, length, position) => {
        const result = await handle.read(buffer, offset, length, position);
        counter.bytes += result.bytesRead;
        return result;
      },
      close: () => handle.close(),
    };
  };
  return { counter, openFile };
}

describe('readTranscriptTail', () => {
  it('reads a whole file without a cursor, then only what was appended', async () => {
    const path = newPath();
    writeFileSync(path, line('a') + line('b'));
    const first = await readTranscriptTail(path, undefined);
    expect(ids(first.records)).toEqual(['a', 'b']);
    expect(first).toMatchObject({ rescanned: false, skippedLines: 0, atEnd: true });
    expect(first.nextCursor).toMatchObject({ path, offset: first.nextCursor.size, lastRecordId: 'b' });

    const unchanged = await readTranscriptTail(path, first.nextCursor);
    expect(unchanged.records).toEqual([]);
    expect(unchanged.nextCursor).toEqual(first.nextCursor);

    let cursor: TranscriptCursor = first.nextCursor;
    for (const batch of [['c'], ['d', 'e'], ['f']]) {
      appendFileSync(path, batch.map((id) => line(id)).join(''));
      const next = await readTranscriptTail(path, cursor);
      expect(ids(next.records)).toEqual(batch);
      expect(next.rescanned).toBe(false);
      cursor = next.nextCursor;
    }
    expect(cursor.lastRecordId).toBe('f');
  });

  it('leaves a partial last line for the next read', async () => {
    const path = newPath();
    const full = line('b', { text: 'half and half' });
    writeFileSync(path, line('a') + full.slice(0, 12));
    const first = await readTranscriptTail(path, undefined);
    expect(ids(first.records)).toEqual(['a']);
    expect(first.nextCursor.offset).toBe(Buffer.byteLength(line('a')));
    appendFileSync(path, full.slice(12));
    const second = await readTranscriptTail(path, first.nextCursor);
    expect(second.records).toEqual([{ id: 'b', type: 'message', text: 'half and half' }]);
  });

  it('skips and counts junk lines, ignores blank ones', async () => {
    const path = newPath();
    writeFileSync(path, `${line('a')}not json\n\n   \n[1,2]\n"str"\n{"id":"torn"${'\n'}${line('b')}`);
    const read = await readTranscriptTail(path, undefined);
    expect(ids(read.records)).toEqual(['a', 'b']);
    expect(read.skippedLines).toBe(4);
  });

  it('keeps multi-byte characters intact across chunk boundaries and lines longer than a chunk', async () => {
    const path = newPath();
    const text = '记忆 ✓ 😀 '.repeat(50);
    writeFileSync(path, line('a', { text }) + line('b', { text: 'x'.repeat(5000) }));
    const read = await readTranscriptTail(path, undefined, { chunkBytes: 7 });
    expect(read.records).toEqual([
      { id: 'a', type: 'message', text },
      { id: 'b', type: 'message', text: 'x'.repeat(5000) },
    ]);
  });

  it('rescans from 0 when the file shrank', async () => {
    const path = newPath();
    writeFileSync(path, line('a') + line('b') + line('c'));
    const first = await readTranscriptTail(path, undefined);
    truncateSync(path, Buffer.byteLength(line('a')));
    const second = await readTranscriptTail(path, first.nextCursor);
    expect(second).toMatchObject({ rescanned: true, rescanReason: 'shrunk' });
    expect(ids(second.records)).toEqual(['a']);
  });

  it('rescans from 0 when the file was replaced by a rename', async () => {
    const path = newPath();
    writeFileSync(path, line('a') + line('b'));
    const first = await readTranscriptTail(path, undefined);
    const replacement = `${path}.new`;
    writeFileSync(replacement, line('x') + line('y') + line('z'));
    renameSync(replacement, path);
    const second = await readTranscriptTail(path, first.nextCursor);
    expect(second).toMatchObject({ rescanned: true, rescanReason: 'replaced' });
    expect(ids(second.records)).toEqual(['x', 'y', 'z']);
  });

  it('rescans from 0 when the same file was rewritten in place with other content', async () => {
    const path = newPath();
    writeFileSync(path, line('a') + line('b'));
    const first = await readTranscriptTail(path, undefined);
    writeFileSync(path, line('p') + line('q') + line('r')); // same inode, truncate + write
    const second = await readTranscriptTail(path, first.nextCursor);
    expect(second).toMatchObject({ rescanned: true, rescanReason: 'boundary-mismatch' });
    expect(ids(second.records)).toEqual(['p', 'q', 'r']);
  });

  it('treats a cursor of another path as no cursor', async () => {
    const path = newPath();
    writeFileSync(path, line('a'));
    const other = newPath();
    writeFileSync(other, line('z'));
    const foreign = (await readTranscriptTail(other, undefined)).nextCursor;
    const read = await readTranscriptTail(path, foreign);
    expect(ids(read.records)).toEqual(['a']);
    expect(read.rescanned).toBe(false);
  });

  it('reports a missing file instead of throwing, and keeps the cursor', async () => {
    const path = newPath();
    writeFileSync(path, line('a'));
    const cursor = (await readTranscriptTail(path, undefined)).nextCursor;
    rmSync(path);
    const read = await readTranscriptTail(path, cursor);
    expect(read.error).toMatch(/ENOENT/);
    expect(read.records).toEqual([]);
    expect(read.nextCursor).toEqual(cursor);
  });

  it('stops at a line boundary after maxBytes and continues from there', async () => {
    const path = newPath();
    writeFileSync(path, ['a', 'b', 'c', 'd'].map((id) => line(id, { pad: 'x'.repeat(100) })).join(''));
    const first = await readTranscriptTail(path, undefined, { maxBytes: 150 });
    expect(ids(first.records)).toEqual(['a', 'b']);
    expect(first.atEnd).toBe(false);
    const second = await readTranscriptTail(path, first.nextCursor);
    expect(ids(second.records)).toEqual(['c', 'd']);
    expect(second.atEnd).toBe(true);
  });

  it('re-reads records a decoder held back (cursorAfterRecords with its consumed count)', async () => {
    const path = newPath();
    const record = (r: Record<string, unknown>) => `${JSON.stringify(r)}\n`;
    writeFileSync(
      path,
      record({ id: 'u1', timestamp: 1, type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }) +
        record({
          id: 'r1',
          timestamp: 2,
          type: 'function_call',
          callId: 'c1',
          name: 'Bash',
          arguments: '{"command":"ls"}',
        }),
    );
    const first = await readTranscriptTail(path, undefined);
    const decoded = decodeCodeBuddyRecords(first.records);
    expect(decoded.consumed).toBe(1);
    const resume = cursorAfterRecords(first, decoded.consumed);
    expect(resume.lastRecordId).toBe('u1');
    expect(cursorAfterRecords(first, 0)).toEqual(first.startCursor);
    expect(cursorAfterRecords(first, 2)).toEqual(first.nextCursor);

    appendFileSync(
      path,
      record({
        id: 'x1',
        timestamp: 3,
        type: 'function_call_result',
        callId: 'c1',
        name: 'Bash',
        status: 'completed',
        output: { type: 'text', text: 'a.ts' },
      }),
    );
    const second = await readTranscriptTail(path, resume);
    expect(second.rescanned).toBe(false);
    expect(ids(second.records)).toEqual(['r1', 'x1']);
    const step = decodeCodeBuddyRecords(second.records);
    expect(step.messages.map((m) => m.sourceIds)).toEqual([['r1', 'x1']]);
  });

  it('cursorAtEnd finds the same cursor a full read ends with, reading only the last line', async () => {
    const path = newPath();
    writeFileSync(path, line('a') + line('b', { text: 'x'.repeat(3000) }) + '{"id":"partial');
    const full = await readTranscriptTail(path, undefined);
    const { counter, openFile } = countingOpen();
    const atEnd = await cursorAtEnd(path, { openFile, chunkBytes: 512 });
    expect(atEnd.cursor).toEqual(full.nextCursor);
    expect(atEnd.cursor.lastRecordId).toBe('b');
    expect(counter.bytes).toBeLessThan(2 * Buffer.byteLength(line('b', { text: 'x'.repeat(3000) })) + 1024);

    const empty = newPath();
    writeFileSync(empty, '');
    expect((await cursorAtEnd(empty)).cursor).toMatchObject({ offset: 0, lastLineHash: '' });
    expect((await cursorAtEnd(join(sandbox, 'missing.jsonl'))).error).toMatch(/ENOENT/);
  });

  it('with a cursor at the end of a 50 MB transcript, reads only the appended tail', async () => {
    const path = newPath();
    const filler = line('big', { text: 'z'.repeat(1000) });
    const copies = Math.ceil((50 * 1024 * 1024) / filler.length);
    writeFileSync(path, filler.repeat(copies));
    const start = countingOpen();
    const { cursor } = await cursorAtEnd(path, { openFile: start.openFile });
    expect(cursor.offset).toBe(copies * filler.length);
    expect(start.counter.bytes).toBeLessThan(64 * 1024);

    const tail = line('new-1', { text: 'hello' }) + line('new-2', { text: 'y'.repeat(700) });
    appendFileSync(path, tail);
    const { counter, openFile } = countingOpen();
    const second = await readTranscriptTail(path, cursor, { openFile });
    expect(second.rescanned).toBe(false);
    expect(ids(second.records)).toEqual(['new-1', 'new-2']);
    // The tail itself, plus the boundary check (a 256-byte line head and one byte).
    const tailBytes = Buffer.byteLength(tail);
    expect(counter.bytes).toBeGreaterThanOrEqual(tailBytes);
    expect(counter.bytes).toBeLessThanOrEqual(tailBytes + 257);
    expect(second.bytesRead).toBe(counter.bytes);
  });

  it('a full read of a multi-megabyte file in small chunks sees every record', async () => {
    const path = newPath();
    const lines = Array.from({ length: 4000 }, (_, i) => line(`r${i}`, { text: `${i} `.repeat(200) }));
    writeFileSync(path, lines.join(''));
    const read = await readTranscriptTail(path, undefined, { chunkBytes: 64 * 1024 + 3 });
    expect(read.records).toHaveLength(4000);
    expect(ids(read.records.slice(-2))).toEqual(['r3998', 'r3999']);
    expect(read.nextCursor.offset).toBe(Buffer.byteLength(lines.join('')));
  });
});
