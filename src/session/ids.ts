/**
 * How a CodeBuddy session maps onto an OpenViking session id. Every stage
 * that talks to a session (recall's dedup ledger, capture, commit, replay,
 * the resume overview) must derive the same id, so the rule lives here once.
 *
 * `cb-<host id>` mirrors the reference plugins' `cc-` / `cu-` / `zc-`
 * prefixes (openviking-api.md §2.1), so sessions of different harnesses
 * never collide. Characters outside `[A-Za-z0-9._-]` become `-`, which keeps
 * ids safe in URL paths and in `viking://user/<u>/sessions/<id>`.
 *
 * @module
 */

/** Prefix of every session this plugin writes. */
export const OV_SESSION_PREFIX = 'cb-';

/** Separator between a main session and one of its sub-agents. */
export const SUBAGENT_SEPARATOR = '__subagent-';

/** `[^A-Za-z0-9._-]` → `-` (so `:` and `/` also become `-`). */
export function sanitizeIdPart(raw: string): string {
  return raw.trim().replace(/[^A-Za-z0-9._-]/g, '-');
}

/**
 * `cb-<sanitised host session id>`, or `''` when the host id is blank (the
 * client refuses an empty session id with BAD_REQUEST, so nothing is sent).
 */
export function ovSessionId(hostSessionId: string): string {
  const id = sanitizeIdPart(hostSessionId);
  return id === '' ? '' : `${OV_SESSION_PREFIX}${id}`;
}

/** The host's `session_id` of an event, trimmed; '' when it sent none. */
export function hostSessionIdOf(input: { session_id?: unknown }): string {
  return typeof input.session_id === 'string' ? input.session_id.trim() : '';
}

/** `cb-<sid>__subagent-<sanitised agent id>`, or `''` when either id is blank. */
export function ovSubagentSessionId(hostSessionId: string, agentId: string): string {
  const main = ovSessionId(hostSessionId);
  const agent = sanitizeIdPart(agentId);
  return main === '' || agent === '' ? '' : `${main}${SUBAGENT_SEPARATOR}${agent}`;
}
