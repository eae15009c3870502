/**
 * The words an import ends with (DESIGN D35): what it imported, what it
 * skipped and why, what failed and what waits in the queue, and the lines
 * it could not read; a dry run's table of what would be sent, per
 * workspace. Pure: the counts in, the text out.
 *
 * @module
 */
import type { SkipReason } from './judge.js';
import { formatBytes, formatDuration } from './progress.js';
import type { HostName } from './scan.js';

/** What was (or would be) sent for one workspace. */
export interface WorkspaceTally {
  sessions: number;
  turns: number;
  messages: number;
  bytes: number;
  hosts: Partial<Record<HostName, number>>;
}

export interface ImportTally {
  /** What the import covered: a workspace, or every one. */
  scope: string;
  workspaces: Map<string, WorkspaceTally>;
  skipped: Map<SkipReason, number>;
  /** Why sessions were off here (one example per reason text). */
  offReasons: Set<string>;
  /** Sessions the server refused for now: their writes wait in the queue. */
  queued: Array<{ session: string; error?: string }>;
  failed: Array<{ session: string; error: string }>;
  /** Sessions left unstarted when the server kept refusing. */
  notStarted: number;
  deadLettered: number;
  skippedLines: number;
}

export function emptyTally(scope: string): ImportTally {
  return {
    scope,
    workspaces: new Map(),
    skipped: new Map(),
    offReasons: new Set(),
    queued: [],
    failed: [],
    notStarted: 0,
    deadLettered: 0,
    skippedLines: 0,
  };
}

/** Adds one session's counts to its workspace's. */
export function tallySession(
  tally: ImportTally,
  workspace: string,
  host: HostName,
  counts: { turns: number; messages: number; bytes: number },
): void {
  const entry = tally.workspaces.get(workspace) ?? { sessions: 0, turns: 0, messages: 0, bytes: 0, hosts: {} };
  entry.sessions += 1;
  entry.turns += counts.turns;
  entry.messages += counts.messages;
  entry.bytes += counts.bytes;
  entry.hosts[host] = (entry.hosts[host] ?? 0) + 1;
  tally.workspaces.set(workspace, entry);
}

export function tallySkip(tally: ImportTally, reason: SkipReason, detail?: string): void {
  tally.skipped.set(reason, (tally.skipped.get(reason) ?? 0) + 1);
  if (reason === 'off' && detail !== undefined) tally.offReasons.add(detail);
}

const SKIP_WORDS: Record<SkipReason, string> = {
  'imported before': 'imported before',
  'captured live': 'captured live already',
  live: 'live (written in the last minutes, or this very session: live capture takes it)',
  off: 'memory or capture off there',
  'on the server': 'already on the server (captured before this data directory knew it)',
  'before --since': 'older than --since',
  'no working folder': 'no working folder recorded (nothing to import)',
};

/** The dry run's text. */
export function dryRunText(tally: ImportTally): string {
  const lines = [`OpenViking import, dry run (nothing is sent): ${tally.scope}`];
  const total = { sessions: 0, turns: 0, messages: 0, bytes: 0 };
  for (const [workspace, entry] of [...tally.workspaces.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const hosts = Object.entries(entry.hosts)
      .map(([host, count]) => `${host} ${count}`)
      .join(', ');
    lines.push(`  ${workspace}: ${tallyText(entry, 'to send')}  (${hosts})`);
    total.sessions += entry.sessions;
    total.turns += entry.turns;
    total.messages += entry.messages;
    total.bytes += entry.bytes;
  }
  lines.push(
    total.sessions === 0
      ? '  nothing to send'
      : `  in all: ${tallyText(total, 'to send')}, then each session committed so the server extracts memories`,
  );
  lines.push(...skipLines(tally, 'Would skip'));
  if (tally.skippedLines > 0) lines.push(`Corrupt or cut transcript lines: ${tally.skippedLines} (skipped).`);
  lines.push(
    'A dry run asks the server nothing: sessions it already holds are found (and skipped) by the import itself.',
  );
  return `${lines.join('\n')}\n`;
}

/** The import's closing text. */
export function summaryText(tally: ImportTally, elapsedMs: number): string {
  const total = { sessions: 0, turns: 0, messages: 0, bytes: 0 };
  for (const entry of tally.workspaces.values()) {
    total.sessions += entry.sessions;
    total.turns += entry.turns;
    total.messages += entry.messages;
    total.bytes += entry.bytes;
  }
  const lines = [
    total.sessions === 0
      ? `OpenViking import of ${tally.scope} done in ${formatDuration(elapsedMs / 1000)}: nothing new to import.`
      : `OpenViking import of ${tally.scope} done in ${formatDuration(elapsedMs / 1000)}: imported ${tallyText(total, 'of transcripts')} and committed them; the server extracts their memories now (/openviking:learned shows what they taught).`,
  ];
  if (tally.workspaces.size > 1)
    for (const [workspace, entry] of [...tally.workspaces.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
      lines.push(`  ${workspace}: ${tallyText(entry, 'of transcripts')}`);
  lines.push(...skipLines(tally, 'Skipped'));
  if (tally.queued.length > 0) {
    const why = tally.queued.find((entry) => entry.error !== undefined)?.error;
    lines.push(
      `Queued ${sessionsText(tally.queued.length)}: the server refused for now${why === undefined ? '' : ` (${why.slice(0, 120)})`}; their writes wait in the queue and go out at the next session start (or run the import again).`,
    );
  }
  if (tally.notStarted > 0)
    lines.push(
      `Not started: ${sessionsText(tally.notStarted)}, because the server kept refusing; run the import again later.`,
    );
  if (tally.failed.length > 0) {
    lines.push(`Failed ${sessionsText(tally.failed.length)} (run the import again to retry them):`);
    for (const entry of tally.failed.slice(0, 5)) lines.push(`  ${entry.session}: ${entry.error.slice(0, 160)}`);
    if (tally.failed.length > 5) lines.push(`  … and ${tally.failed.length - 5} more`);
  }
  if (tally.deadLettered > 0)
    lines.push(
      `${tally.deadLettered} messages the server refused are in the dead-letter folder (node scripts/hook.mjs requeue-dead sends them again).`,
    );
  if (tally.skippedLines > 0) lines.push(`Corrupt or cut transcript lines skipped: ${tally.skippedLines}.`);
  return `${lines.join('\n')}\n`;
}

function skipLines(tally: ImportTally, verb: string): string[] {
  const count = [...tally.skipped.values()].reduce((sum, n) => sum + n, 0);
  if (count === 0) return [];
  const parts = [...tally.skipped.entries()].map(([reason, n]) => `${n} ${SKIP_WORDS[reason]}`);
  const lines = [`${verb} ${sessionsText(count)}: ${parts.join('; ')}.`];
  for (const reason of [...tally.offReasons].slice(0, 3)) lines.push(`  off: ${reason}`);
  return lines;
}

/** `bytes`: of messages to send (a dry run), or of transcripts read (an import). */
function tallyText(entry: { sessions: number; turns: number; messages: number; bytes: number }, bytes: string): string {
  return `${sessionsText(entry.sessions)} · ${entry.turns.toLocaleString('en-US')} turns · ${entry.messages.toLocaleString('en-US')} messages · ${formatBytes(entry.bytes)} ${bytes}`;
}

function sessionsText(count: number): string {
  return `${count} session${count === 1 ? '' : 's'}`;
}
