/**
 * Doctor check `activity`: the last recall and capture of the most recent
 * sessions, from the status snapshot the stages leave behind (no network).
 * Answers "is it doing anything at all?" without reading a debug log.
 *
 * @module
 */
import { readStatus } from '../store/status.js';
import type { ActivityMark } from '../store/status.js';
import { formatAge } from '../statusline/format.js';
import type { Check } from './types.js';

/** Sessions listed. */
const MAX_SESSIONS = 5;

export async function checkActivity(dataDir: string, now: number): Promise<Check> {
  const snapshot = await readStatus(dataDir);
  const ids = [...new Set([...Object.keys(snapshot.recall), ...Object.keys(snapshot.capture)])];
  const lastAt = (id: string) => Math.max(snapshot.recall[id]?.at ?? 0, snapshot.capture[id]?.at ?? 0);
  const recent = ids.sort((a, b) => lastAt(b) - lastAt(a)).slice(0, MAX_SESSIONS);
  const lines = recent.map(
    (id) =>
      `${id}: recall ${describe(snapshot.recall[id], 'memory', 'memories', now)}; capture ${describe(snapshot.capture[id], 'message', 'messages', now)}`,
  );
  if (snapshot.server) {
    lines.unshift(
      `server last seen ${snapshot.server.up ? 'up' : `down${snapshot.server.detail ? ` (${snapshot.server.detail})` : ''}`} ${formatAge(now - snapshot.server.at)}`,
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
    data: { server: snapshot.server ?? null, sessions },
  };
}

function describe(mark: ActivityMark | undefined, one: string, many: string, now: number): string {
  if (!mark) return 'never';
  return `${mark.count} ${mark.count === 1 ? one : many} ${formatAge(now - mark.at)}`;
}
