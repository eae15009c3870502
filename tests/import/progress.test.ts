/**
 * The import's progress display (DESIGN D35): on a terminal one line
 * rewritten in place with sessions done of total, turns, bytes, rate and
 * time left; to a pipe a plain line every ten seconds; the status file the
 * status line reads, about once a second, and the summary at the end.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, Progress, type Terminal } from '../../src/import/progress.js';
import { readImportStatus } from '../../src/store/importStatus.js';

function terminal(isTTY: boolean): Terminal & { written: string[] } {
  const written: string[] = [];
  return { isTTY, columns: 200, written, write: (text) => void written.push(text) };
}

describe('import progress', () => {
  it('a terminal: one line rewritten in place, with the rate and the time left', () => {
    let now = 1_000_000;
    const tty = terminal(true);
    const progress = new Progress(
      tty,
      join(mkdtempSync(join(tmpdir(), 'ov-progress-')), 'data'),
      () => now,
      42,
      4,
      4 * 1024 * 1024,
    );
    now += 2_000;
    progress.sessionDone(1024 * 1024, 12);
    expect(tty.written.at(-1)).toBe(
      '\r\u001b[2Kimport: 1/4 sessions · 12 turns · 1.0 MB of 4.0 MB · 512 KB/s · about 6s left',
    );
    progress.finish('done.\n');
    expect(tty.written.at(-1)).toBe('\r\u001b[2K');
  });

  it('a pipe: a plain line every ten seconds; the status file for the status line, then the summary', () => {
    let now = 5_000_000;
    const pipe = terminal(false);
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ov-progress-')), 'data');
    const progress = new Progress(pipe, dataDir, () => now, 42, 2, 2048);
    now += 1_500;
    progress.sessionDone(1024, 3);
    expect(pipe.written).toEqual([]);
    expect(readImportStatus(dataDir)).toMatchObject({ state: 'running', pid: 42, sessionsDone: 1, sessionsTotal: 2 });
    now += 10_000;
    progress.tick();
    expect(pipe.written).toEqual(['import: 1/2 sessions · 3 turns · 1.0 KB of 2.0 KB · 89 B/s · about 12s left\n']);
    progress.finish('the summary\n');
    expect(readImportStatus(dataDir)).toMatchObject({ state: 'done', summary: 'the summary\n' });
  });

  it('sizes and durations read at a glance', () => {
    expect([formatBytes(812), formatBytes(3.2 * 1024), formatBytes(40 * 1024 * 1024)]).toEqual([
      '812 B',
      '3.2 KB',
      '40 MB',
    ]);
    expect([formatDuration(45), formatDuration(185), formatDuration(7800)]).toEqual(['45s', '3m05s', '2h10m']);
  });
});
