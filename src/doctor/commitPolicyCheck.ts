/**
 * Doctor check `commit-policy`: who commits the user's sessions. The
 * effective server-side `auto_commit_policy` of the latest captured session
 * (openviking-api.md §10, DESIGN D19), read back with `GET session`, next to
 * the client-side rules that apply whatever the server does. "Latest" is the
 * newest entry of the uncommitted index (capture/commitIndex.ts): a session
 * the client has fully committed needs no policy any more.
 *
 * @module
 */
import { listUncommitted } from '../capture/commitIndex.js';
import type { Settings } from '../config/types.js';
import type { AutoCommitPolicy, OpenVikingClient } from '../openviking/types.js';
import type { Check } from './types.js';

const TITLE = 'Commit policy';

export async function checkCommitPolicy(
  dataDir: string,
  client: OpenVikingClient,
  settings: Settings,
  serverUp: boolean,
): Promise<Check> {
  const clientSide = `client side: commit at ${settings.commitTokenThreshold} pending tokens, before compaction and at SessionEnd; a session idle for ${Math.round(settings.staleCommitIdleMs / 60_000)} min is committed by the next session start of its workspace`;
  const listed = listUncommitted(dataDir);
  const latest = listed === 'missing' ? undefined : [...listed].sort((a, b) => b.markedAt - a.markedAt)[0];
  if (latest === undefined)
    return {
      id: 'commit-policy',
      title: TITLE,
      status: 'info',
      lines: ['no captured session is waiting for a commit', clientSide],
    };
  if (!serverUp)
    return {
      id: 'commit-policy',
      title: TITLE,
      status: 'info',
      lines: [`latest session ${latest.ovSessionId}: not checked (the server is unreachable)`, clientSide],
    };
  const got = await client.getSession(latest.ovSessionId);
  const policy = got.ok ? got.result.auto_commit_policy : undefined;
  const lines = [
    `latest session ${latest.ovSessionId}: ${got.ok ? describePolicy(policy) : `not readable (${got.code}: ${got.message})`}`,
    clientSide,
  ];
  if (!settings.serverCommitPolicy)
    lines.push('OPENVIKING_SERVER_COMMIT_POLICY=false: the plugin gives sessions no server-side policy');
  return {
    id: 'commit-policy',
    title: TITLE,
    status: 'info',
    lines,
    data: { sessionId: latest.ovSessionId, autoCommitPolicy: policy ?? null },
  };
}

function describePolicy(policy: AutoCommitPolicy | null | undefined): string {
  if (policy === undefined) return 'the server predates auto_commit_policy (commits are client-side only)';
  if (policy === null) return 'no server-side policy (commits are client-side only)';
  const parts = [
    `${policy.pending_token_threshold ?? '?'} pending tokens`,
    `${policy.message_count_threshold ?? '?'} messages`,
    `${policy.idle_timeout_seconds ?? '?'} s idle (only when the server's idle scanner is on)`,
  ];
  return `the server commits it by itself at ${parts.join(', ')}, keeping ${policy.keep_recent_count ?? 0} recent messages`;
}
