/**
 * Commit counts per session for the fault cases about who commits (the
 * ledger's `uncommitted` says which turns no commit covered): accepted
 * commits on the server, and the commit requests the plugin sent.
 *
 * @module
 */
import type { OvTestServer } from '../../support/ov-server/index.js';

/** Accepted commits (archives) of one session, 0 when the server never saw it. */
export function acceptedCommits(server: OvTestServer, ovSessionId: string): number {
  return server.session(ovSessionId)?.commits.filter((commit) => commit.status === 'accepted').length ?? 0;
}

/** Commit requests the plugin sent for one session (accepted, skipped or failed). */
export function commitRequests(server: OvTestServer, ovSessionId: string): number {
  return server.requests({ method: 'POST', path: `/api/v1/sessions/${ovSessionId}/commit` }).length;
}
