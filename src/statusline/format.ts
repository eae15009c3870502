/**
 * The status line's text: one short line of memory state built from cached
 * facts only (status snapshot + queue counts), so it can be redrawn every
 * 300 ms without touching the network.
 *
 * Pure: the caller gathers the facts and says whether colour is allowed.
 * Every fact passes the printable filter (util/printable.ts) before it is
 * painted: only the line's own colour codes reach the terminal.
 *
 * @module
 */
import type { QueueStats } from '../store/queue.js';
import type { ActivityMark, StatusSnapshot } from '../store/status.js';
import { latestMark } from '../store/status.js';
import { printableLine } from '../util/printable.js';

export interface StatusLineFacts {
  /** False when OPENVIKING_MEMORY_ENABLED is off. */
  enabled: boolean;
  snapshot: StatusSnapshot;
  /** Undefined when the queue directory could not be read. */
  queue?: QueueStats;
  /** The OpenViking session id (`cb-…`) of the host's session on the status-line stdin, if any. */
  sessionId?: string;
  /** A running import's sessions done and total (DESIGN D35). */
  importing?: { done: number; total: number };
  /** The peer this session's workspace files name and the user has not approved (DESIGN D32). */
  unapprovedPeer?: string;
  now: number;
  color: boolean;
}

/** A server observation older than this is shown with its age. */
export const STALE_SERVER_MS = 15 * 60_000;

const ANSI = { green: '32', red: '31', yellow: '33', dim: '2' } as const;
type Tone = keyof typeof ANSI;

/** One line, no trailing newline. */
export function formatStatusLine(facts: StatusLineFacts): string {
  const paint = (tone: Tone, text: string): string =>
    facts.color ? `\u001b[${ANSI[tone]}m${printableLine(text)}\u001b[0m` : printableLine(text);
  if (!facts.enabled) return `OV ${paint('dim', 'off')}`;
  const parts = [serverPart(facts, paint)];
  const queued = (facts.queue?.pending.count ?? 0) + (facts.queue?.claimed.count ?? 0);
  if (queued > 0) parts.push(paint('yellow', `${queued} queued`));
  const dead = facts.queue?.dead.count ?? 0;
  if (dead > 0) parts.push(paint('red', `${dead} dead`));
  for (const kind of ['recall', 'capture'] as const) {
    const part = activityPart(facts, kind);
    if (part) parts.push(printableLine(part));
  }
  const learned = learnedPart(facts);
  if (learned) parts.push(learned);
  if (facts.importing) parts.push(paint('yellow', `importing ${facts.importing.done}/${facts.importing.total}`));
  const trust = trustPart(facts);
  if (trust) parts.push(paint('yellow', trust));
  return `OV ${parts.join(' · ')}`;
}

/** What earlier sessions taught, as this session's start said it (DESIGN D36): `learned 3 memories`; this session's only. */
function learnedPart(facts: StatusLineFacts): string | undefined {
  const mark = facts.sessionId ? facts.snapshot.learned?.[facts.sessionId] : undefined;
  return mark === undefined ? undefined : `learned ${mark.count} ${mark.count === 1 ? 'memory' : 'memories'}`;
}

/** A workspace peer waiting for the user's approval: which, and the command (D32). */
function trustPart(facts: StatusLineFacts): string | undefined {
  return facts.unapprovedPeer === undefined
    ? undefined
    : `peer ${facts.unapprovedPeer} not approved: /openviking:trust`;
}

function serverPart(facts: StatusLineFacts, paint: (tone: Tone, text: string) => string): string {
  const server = facts.snapshot.server;
  if (!server) return paint('dim', 'not contacted yet');
  const age = facts.now - server.at;
  if (!server.up) return `${paint('red', '○ down')} ${paint('dim', formatAge(age))}`;
  return age > STALE_SERVER_MS ? `${paint('green', '● up')} ${paint('dim', formatAge(age))}` : paint('green', '● up');
}

const ACTIVITY_UNITS = { recall: ['memory', 'memories'], capture: ['message', 'messages'] } as const;

/** This session's last recall (memories injected) or capture (messages the server took), else the newest of any session. */
function activityPart(facts: StatusLineFacts, kind: 'recall' | 'capture'): string | undefined {
  const marks = facts.snapshot[kind];
  const own: ActivityMark | undefined = facts.sessionId ? marks[facts.sessionId] : undefined;
  const mark = own ?? latestMark(marks)?.mark;
  if (!mark) return undefined;
  const [one, many] = ACTIVITY_UNITS[kind];
  return `${kind} ${mark.count} ${mark.count === 1 ? one : many} ${formatAge(facts.now - mark.at)}`;
}

/** `now`, `42s ago`, `5m ago`, `3h ago`, `2d ago`. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 5) return 'now';
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  return `${Math.floor(seconds / 86_400)}d ago`;
}

/**
 * Colour unless `NO_COLOR` is set to anything non-empty (no-color.org) or
 * `TERM=dumb`. Not keyed on stdout being a TTY: the host always reads the
 * status line through a pipe, and renders the ANSI codes itself.
 */
export function colorAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}
