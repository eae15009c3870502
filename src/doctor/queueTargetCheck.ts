/**
 * Doctor check `queue-targets` (DESIGN D33): queued writes that wait for a
 * server or identity the configuration no longer names. Each queued write
 * goes to the server and identity it was captured for (capture/
 * writeTarget.ts), so after a change of `OPENVIKING_URL`, the user, the
 * account or the key, what was queued before waits: it is sent once that
 * one is configured again, or moves to the dead letters at its TTL. Shown
 * only when something waits so; reads the pending entries (at most
 * MAX_ENTRIES of them), no network.
 *
 * @module
 */
import { join } from 'node:path';
import type { PluginConfig } from '../config/types.js';
import { describeTarget, writeTargetOf, type WriteTarget } from '../capture/writeTarget.js';
import { readJson } from '../store/jsonFile.js';
import { listDir, parseEntryName, queuePaths, toQueueEntry } from '../store/queueFiles.js';
import { formatAge } from '../statusline/format.js';
import type { Check } from './types.js';

/** Entries read at most (a queue holds a few dozen in practice). */
const MAX_ENTRIES = 2_000;

interface Waiting {
  target: WriteTarget;
  count: number;
  oldest: number;
}

export async function checkQueueTargets(
  config: PluginConfig,
  queueDir: string,
  now: number,
): Promise<Check | undefined> {
  const current = writeTargetOf(config.credentials);
  const { pendingDir } = queuePaths(queueDir);
  const names = (await listDir(pendingDir).catch((): string[] => []))
    .filter((name) => parseEntryName(name) !== undefined)
    .sort()
    .slice(0, MAX_ENTRIES);
  const waiting = new Map<string, Waiting>();
  for (const name of names) {
    const entry = toQueueEntry(await readJson(join(pendingDir, name)));
    if (entry?.target === undefined || entry.target.id === current.id) continue;
    const held = waiting.get(entry.target.id) ?? { target: entry.target, count: 0, oldest: entry.createdAt };
    held.count += 1;
    held.oldest = Math.min(held.oldest, entry.requeuedAt ?? entry.createdAt);
    waiting.set(entry.target.id, held);
  }
  if (waiting.size === 0) return undefined;
  const ttlMs = config.settings.pendingTtlDays * 24 * 60 * 60_000;
  const lines = [...waiting.values()].map(({ target, count, oldest }) => {
    const shown =
      describeTarget(target) === describeTarget(current)
        ? `${describeTarget(target)} with another API key`
        : describeTarget(target);
    const dies = Math.max(0, oldest + ttlMs - now);
    return `${count} queued write${count === 1 ? '' : 's'} wait for ${shown} (the oldest queued ${formatAge(now - oldest)}; given up in ${formatDays(dies)} unless it is configured again)`;
  });
  return {
    id: 'queue-targets',
    title: 'Writes for another server',
    status: 'warn',
    lines: [...lines, `configured now: ${describeTarget(current)}`],
    fix: `Queued conversation goes only to the server and identity it was captured for, never to another. Configure that one again (OPENVIKING_URL, the key, OPENVIKING_ACCOUNT / OPENVIKING_USER) and start a session to send it; otherwise it moves to ${queuePaths(queueDir).deadDir} after OPENVIKING_PENDING_TTL_DAYS (${config.settings.pendingTtlDays} days), where each file keeps the text.`,
    data: {
      waiting: [...waiting.values()].map(({ target, count, oldest }) => ({
        server: target.server,
        ...(target.account !== undefined ? { account: target.account } : {}),
        ...(target.user !== undefined ? { user: target.user } : {}),
        count,
        oldestAt: oldest,
      })),
    },
  };
}

function formatDays(ms: number): string {
  const days = ms / 86_400_000;
  return days >= 1 ? `${Math.floor(days)} days` : `${Math.max(0, Math.ceil(ms / 3_600_000))} hours`;
}
