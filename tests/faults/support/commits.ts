/**
 * The commit side of the fault suite's ledger: which expected markers the
 * server holds only in live (never archived) messages, and how many commits
 * each session got. A turn that is stored but never inside a commit never
 * becomes a memory, so a case about commits prints these next to the
 * lost/duplicated line.
 *
 * @module
 */
import type { OvTestServer } from '../../support/ov-server/index.js';
import { messageText } from './ledger.js';

/** Expected markers that no archive of any session holds. */
export function uncommittedMarkers(server: OvTestServer, expected: readonly string[]): string[] {
  const archived = server
    .sessions()
    .flatMap((session) => session.archives.flatMap((archive) => archive.messages.map(messageText)))
    .join('\n');
  return expected.filter((marker) => !new RegExp(`${escapeRegExp(marker)}(?!\\d)`).test(archived));
}

/** Accepted commits (archives) of one session, 0 when the server never saw it. */
export function acceptedCommits(server: OvTestServer, ovSessionId: string): number {
  return server.session(ovSessionId)?.commits.filter((commit) => commit.status === 'accepted').length ?? 0;
}

/** Commit requests the plugin sent for one session (accepted, skipped or failed). */
export function commitRequests(server: OvTestServer, ovSessionId: string): number {
  return server.requests({ method: 'POST', path: `/api/v1/sessions/${ovSessionId}/commit` }).length;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
