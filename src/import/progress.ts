/**
 * Where an import is (DESIGN D35): on a terminal one line rewritten in
 * place (sessions done of total, turns, bytes, rate, time left); to a pipe
 * or file a plain line every PLAIN_EVERY_MS; and, for the status line and
 * `import --status`, the status file (store/importStatus.ts) about once a
 * second. Time left is the bytes still to read at the rate read so far.
 *
 * @module
 */
import { writeImportStatus, type ImportStatus } from '../store/importStatus.js';

/** Where the progress goes (main.ts gives stderr). */
export interface Terminal {
  /** Rewrite one line in place (a TTY), or print plain lines now and then. */
  isTTY: boolean;
  columns?: number;
  write(text: string): void;
}

const PLAIN_EVERY_MS = 10_000;
const STATUS_EVERY_MS = 1_000;

export interface ProgressCounts {
  sessionsDone: number;
  sessionsTotal: number;
  turns: number;
  bytesDone: number;
  bytesTotal: number;
}

export class Progress {
  private readonly counts: ProgressCounts;
  private readonly startedAt: number;
  private lastPlain: number;
  private lastStatus = 0;
  private drawn = false;

  constructor(
    private readonly terminal: Terminal | undefined,
    private readonly dataDir: string,
    private readonly now: () => number,
    private readonly pid: number,
    sessionsTotal: number,
    bytesTotal: number,
  ) {
    this.startedAt = now();
    this.lastPlain = this.startedAt;
    this.counts = { sessionsDone: 0, sessionsTotal, turns: 0, bytesDone: 0, bytesTotal };
  }

  /** One session finished (whatever its outcome): its transcript's bytes and the turns it sent. */
  sessionDone(bytes: number, turns: number): void {
    this.counts.sessionsDone += 1;
    this.counts.bytesDone += bytes;
    this.counts.turns += turns;
    this.show();
  }

  /** Redraws when due (the caller ticks it now and then, so a long session still shows life). */
  tick(): void {
    this.show();
  }

  /** The last status (with the summary), and the terminal's line ended. */
  finish(summary: string): void {
    if (this.drawn && this.terminal?.isTTY === true) this.terminal.write('\r\u001b[2K');
    writeImportStatus(this.dataDir, this.status('done', summary));
  }

  /** `import: 12/340 sessions · 1,204 turns · 3.2 MB of 40 MB · 4.1 MB/s · about 1m20s left`. */
  line(): string {
    const { sessionsDone, sessionsTotal, turns, bytesDone, bytesTotal } = this.counts;
    const seconds = Math.max(0.001, (this.now() - this.startedAt) / 1000);
    const rate = bytesDone / seconds;
    const left = rate > 0 ? (bytesTotal - bytesDone) / rate : undefined;
    return [
      `import: ${sessionsDone}/${sessionsTotal} sessions`,
      `${turns.toLocaleString('en-US')} turns`,
      `${formatBytes(bytesDone)} of ${formatBytes(bytesTotal)}`,
      `${formatBytes(rate)}/s`,
      left === undefined || sessionsDone === 0 ? 'time left unknown yet' : `about ${formatDuration(left)} left`,
    ].join(' · ');
  }

  private show(): void {
    const now = this.now();
    if (now - this.lastStatus >= STATUS_EVERY_MS) {
      this.lastStatus = now;
      writeImportStatus(this.dataDir, this.status('running'));
    }
    const terminal = this.terminal;
    if (terminal === undefined) return;
    if (terminal.isTTY) {
      const width = Math.max(20, (terminal.columns ?? 100) - 1);
      terminal.write(`\r\u001b[2K${this.line().slice(0, width)}`);
      this.drawn = true;
    } else if (now - this.lastPlain >= PLAIN_EVERY_MS) {
      this.lastPlain = now;
      terminal.write(`${this.line()}\n`);
    }
  }

  private status(state: ImportStatus['state'], summary?: string): ImportStatus {
    return {
      state,
      pid: this.pid,
      startedAt: this.startedAt,
      at: this.now(),
      sessionsDone: this.counts.sessionsDone,
      sessionsTotal: this.counts.sessionsTotal,
      bytesDone: this.counts.bytesDone,
      bytesTotal: this.counts.bytesTotal,
      ...(summary !== undefined ? { summary } : {}),
    };
  }
}

/** `812 B`, `3.2 KB`, `40 MB`, `1.1 GB` (powers of 1,024). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `45s`, `3m05s`, `2h10m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
