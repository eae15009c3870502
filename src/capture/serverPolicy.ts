/**
 * The server's own commit policy for each captured session
 * (openviking-api.md §10, DESIGN D19). Hosts whose SessionEnd never fires
 * (2.117 headless, 2.163 `-p`/stream-json) leave the end of every session
 * uncommitted until another session of the workspace starts; a server that
 * carries `auto_commit_policy` commits by itself on thresholds and, when its
 * idle scanner is on, after the idle timeout.
 *
 * Set with `PATCH /api/v1/sessions/{id}/config` once the first batch has
 * created the session (the plugin's sessions are auto-created by their first
 * write, so no create request is added). The thresholds are the plugin's own
 * knobs, so server and client commit alike; `keep_recent_count` is 0,
 * because an idle commit that kept a tail would never archive it.
 *
 * Only where the server reports `total_message_count`: a server-side commit
 * shrinks the live count, and exactly-once (inflight.ts) then needs the total.
 * An older server (404/405 on the route, 400/422 saying the field is
 * unknown) is remembered per server URL for a day and keeps the client-side
 * rules. A 400 about a value is not that: 0.5.2 takes an idle timeout of 0
 * or at least 300 s (docs/host-facts.md F41), so a shorter one is sent as
 * 300, and any other refused value fails this session's policy only.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import type { AutoCommitPolicy } from '../openviking/types.js';
import { cacheFile, cacheKey, readCached, writeCached } from '../store/keyedCache.js';
import type { SessionWriter } from './writer.js';

const CACHE_NAME = 'commit-policy';
const UNSUPPORTED_TTL_MS = 24 * 60 * 60_000;

export type PolicyOutcome = 'set' | 'off' | 'unsupported' | 'failed';

/** The least idle timeout other than 0 that OpenViking 0.5.2 accepts. */
export const SERVER_MIN_IDLE_SECONDS = 300;

/** The policy the settings ask for, or undefined when the knob is off. */
export function policyFor(settings: Settings): AutoCommitPolicy | undefined {
  if (!settings.serverCommitPolicy) return undefined;
  const idle = settings.serverCommitIdleSeconds;
  return {
    pending_token_threshold: settings.commitTokenThreshold,
    message_count_threshold: settings.serverCommitMessageThreshold,
    idle_timeout_seconds: idle > 0 && idle < SERVER_MIN_IDLE_SECONDS ? SERVER_MIN_IDLE_SECONDS : idle,
    keep_recent_count: 0,
  };
}

function isUnsupported(value: unknown): value is true {
  return value === true;
}

/**
 * Gives the writer's session the policy (the session exists: a batch was
 * just applied). `set` means the server now carries it.
 */
export async function applyServerPolicy(writer: SessionWriter): Promise<PolicyOutcome> {
  const { env } = writer;
  const policy = policyFor(env.settings);
  if (policy === undefined || writer.count?.total === undefined) return 'off';
  const file = cacheFile(env.dataDir, CACHE_NAME);
  const key = cacheKey(env.client.baseUrl);
  if (readCached(file, key, env.now(), isUnsupported) === true) return 'unsupported';
  const result = await env.client.setCommitPolicy(writer.ovSessionId, policy);
  if (result.ok) return 'set';
  if (refusedAsUnknown(result.status, result.message)) {
    await writeCached(file, key, true, env.now() + UNSUPPORTED_TTL_MS, env.now());
    env.log.debug('server has no auto_commit_policy; client-side commits only', { status: result.status });
    return 'unsupported';
  }
  env.log.debug('commit policy not set', { session: writer.ovSessionId, status: result.status, code: result.code });
  return 'failed';
}

/** §10: an older server answers 404/405 on the config route, or 400/422 saying the field is unknown (not a value it refuses). */
export function refusedAsUnknown(status: number, message: string): boolean {
  if (status === 404 || status === 405 || status === 501) return true;
  return (
    (status === 400 || status === 422) &&
    /auto_commit_policy/i.test(message) &&
    /extra inputs|not permitted|extra_forbidden|unexpected|unrecognized|unknown field/i.test(message)
  );
}
