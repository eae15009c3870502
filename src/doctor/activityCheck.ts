/**
 * Doctor check `activity`: the last recall and capture of the most recent
 * sessions, from the status snapshot the stages leave behind (no network),
 * and which process answered the recall (the prompt hook, the resident
 * helper or the hooks module). Answers "is it doing anything at all?"
 * without reading a debug log.
 *
 * @module
 */
import { answeredByPhrase, readStatus, serverKeyOf } from '../store/status.js';
import { displayUrl } from '../openviking/displayUrl.js';
import type { ActivityMark } from '../store/status.js';
import { formatAge } from '../statusline/format.js';
import type { Check } from './types.js';
import { counted } from '../util/plural.js';

/** Sessions listed. */
const MAX_SESSIONS = 5;

/** `baseUrl`: the server of the configuration in use; what the hooks saw of another server is not shown as its state. */
export async function checkActivity(dataDir: string, now: number, baseUrl: string): Promise<Check> {
  const snapshot = await readStatus(dataDir);
  const ids = [...new Set([...Object.keys(snapshot.recall), ...Object.keys(snapshot.capture)])];
  const lastAt = (id: string) => Math.max(snapshot.recall[id]?.at ?? 0, snapshot.capture[id]?.at ?? 0);
  const recent = ids.sort((a, b) => lastAt(b) - lastAt(a)).slice(0, MAX_SESSIONS);
  const lines = recent.map(
    (id) =>
      `${id}: recall ${describe(snapshot.recall[id], 'memory', 'memories', now)}${answeredByPhrase(snapshot.recall[id]?.by)}; capture ${describe(snapshot.capture[id], 'message', 'messages', now)}`,
  );
  const seen = snapshot.server;
  const mine = seen !== undefined && seen.server === serverKeyOf(baseUrl) ? seen : undefined;
  if (mine !== undefined) {
    lines.unshift(
      `server last seen ${mine.up ? 'up' : `down${mine.detail ? ` (${mine.detail})` : ''}`} ${formatAge(now - mine.at)}`,
    );
  } else if (seen !== undefined) {
    lines.unshift(
      `no hook has talked to ${displayUrl(baseUrl, true)} lately (the last server the hooks saw, ${formatAge(now - seen.at)}, was another configuration's)`,
    );
  }
  if (recent.length === 0) lines.push('no session has recalled or captured anything yet');
  const sessions = recent.map((id) => ({
    sessionId: id,
    recall: snapshot.recall[id] ?? null,
    capture: snapshot.capture[id] ?? null,
  }));
  return {
    id: 'activity',
    title: 'Recent sessions',
    status: 'info',
    lines,
    data: { server: mine ?? null, sessions },
  };
}

function describe(mark: ActivityMark | undefined, one: string, many: string, now: number): string {
  if (!mark) return 'never';
  return `${counted(mark.count, one, many)} ${formatAge(now - mark.at)}`;
}
