/**
 * The one exactly-once check of the fault suite: the markers a test wrote
 * into transcripts against the messages the OpenViking test server stored
 * (every message ever added, archived or live: `allMessages`).
 *
 * lost        = expected markers the server never stored;
 * duplicated  = expected markers stored more than once (one per extra copy);
 * uncommitted = expected markers in no archive (no commit ever covered them).
 * Each test prints its line (`turns lost = 0, duplicated = 0, uncommitted = …`)
 * and asserts lost and duplicated are zero, together with the host-visible
 * hook time against its deadline; cases that end their sessions also assert
 * uncommitted is zero.
 *
 * @module
 */
import type { OvTestServer, StoredMessage } from '../../support/ov-server/index.js';
import type { LoggedRequest } from '../../support/ov-server/types.js';

export interface LedgerReport {
  expected: number;
  stored: number;
  lost: string[];
  duplicated: string[];
  uncommitted: string[];
}

/** Every text of a stored message, joined (markers sit in text parts). */
export function messageText(message: StoredMessage): string {
  return message.parts.map((part) => (typeof part.text === 'string' ? part.text : '')).join('\n');
}

/** Stored messages across the given sessions (all of them when `sessionIds` is undefined). */
export function storedMessages(server: OvTestServer, sessionIds?: readonly string[]): StoredMessage[] {
  return server
    .sessions()
    .filter((session) => sessionIds === undefined || sessionIds.includes(session.sessionId))
    .flatMap((session) => session.allMessages);
}

/** Messages that some commit archived, across the given sessions. */
export function archivedMessages(server: OvTestServer, sessionIds?: readonly string[]): StoredMessage[] {
  return server
    .sessions()
    .filter((session) => sessionIds === undefined || sessionIds.includes(session.sessionId))
    .flatMap((session) => session.archives.flatMap((archive) => archive.messages));
}

/** How often each expected marker occurs in `messages`. */
function markerCounts(messages: readonly StoredMessage[], expected: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>(expected.map((marker) => [marker, 0]));
  for (const message of messages) {
    const text = messageText(message);
    for (const marker of expected) if (containsMarker(text, marker)) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  }
  return counts;
}

/** Compares `expected` markers with what the server stored and archived. */
export function ledger(
  server: OvTestServer,
  expected: readonly string[],
  sessionIds?: readonly string[],
): LedgerReport {
  const stored = storedMessages(server, sessionIds);
  const counts = markerCounts(stored, expected);
  const archived = markerCounts(archivedMessages(server, sessionIds), expected);
  const lost: string[] = [];
  const duplicated: string[] = [];
  const uncommitted: string[] = [];
  for (const [marker, count] of counts) {
    if (count === 0) lost.push(marker);
    for (let extra = 1; extra < count; extra++) duplicated.push(marker);
    if (count > 0 && archived.get(marker) === 0) uncommitted.push(marker);
  }
  return { expected: expected.length, stored: stored.length, lost, duplicated, uncommitted };
}

/** `tag#1/user` must not match inside `tag#12/user`: the marker ends at a non-digit. */
function containsMarker(text: string, marker: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(marker, from);
    if (at === -1) return false;
    const next = text.charCodeAt(at + marker.length);
    if (!(next >= 48 && next <= 57)) return true;
    from = at + 1;
  }
}

/** Polls until nothing is lost (or `timeoutMs` passed), then returns the final report. */
export async function settledLedger(
  server: OvTestServer,
  expected: readonly string[],
  options: { sessionIds?: readonly string[]; timeoutMs?: number; quietMs?: number } = {},
): Promise<LedgerReport> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let report = ledger(server, expected, options.sessionIds);
  while (report.lost.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    report = ledger(server, expected, options.sessionIds);
  }
  // Late duplicates (a straggling resend) need a moment to show up.
  const quietUntil = Date.now() + (options.quietMs ?? 150);
  while (Date.now() < quietUntil) await new Promise((resolve) => setTimeout(resolve, 25));
  return ledger(server, expected, options.sessionIds);
}

/** One printed line per case, the suite's required output. */
export function describeLedger(label: string, report: LedgerReport, hookMs: number, deadlineMs: number): string {
  return `[faults] ${label}: turns lost = ${report.lost.length}, turns duplicated = ${report.duplicated.length}, uncommitted = ${report.uncommitted.length}, stored = ${report.stored}/${report.expected}, hook time ${hookMs.toFixed(0)} ms (deadline ${deadlineMs} ms)`;
}

/**
 * For each duplicated marker, the requests that carried it: when the server
 * received each (on a starved machine that can be well after the client
 * sent it), how long after that it acted (a late store is what a resend
 * collides with), its answer and fault; then the count checks (`GET` of the
 * session) in between, which the writer judged by. Printed when a case
 * fails, so a duplicate explains itself from the run's output alone.
 */
export function traceDuplicates(server: OvTestServer, duplicated: readonly string[]): string[] {
  const writes = server.requests({ method: 'POST' }).filter((entry) => entry.path.includes('/messages'));
  const t0 = writes[0]?.startedAt ?? 0;
  const describe = (entry: LoggedRequest): string => {
    const acted = entry.handledAt === undefined ? 'never acted' : `acted +${entry.handledAt - entry.startedAt} ms`;
    return `#${entry.seq} received t+${entry.startedAt - t0} ms, ${acted}, status ${entry.status}${entry.fault === undefined ? '' : `, fault ${entry.fault}`}${entry.durationMs === undefined ? '' : `, answered in ${entry.durationMs} ms`}`;
  };
  return [...new Set(duplicated)].flatMap((marker) => {
    const carriers = writes.filter((entry) => containsMarker(entry.rawBody, marker));
    const lines = [`[faults] ${marker} carried by ${carriers.length} request(s): ${carriers.map(describe).join('; ')}`];
    const first = carriers[0];
    const last = carriers.at(-1);
    if (first === undefined || last === undefined) return lines;
    const sessionPath = first.path.slice(0, first.path.lastIndexOf('/messages'));
    const checks = server
      .requests({ method: 'GET', path: sessionPath })
      .filter((entry) => entry.seq > first.seq && entry.seq < last.seq);
    return [...lines, `[faults] ${marker} count checks in between: ${checks.map(describe).join('; ') || 'none'}`];
  });
}
