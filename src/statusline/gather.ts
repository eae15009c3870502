/**
 * Collects the status line's facts from disk only: the plugin's master
 * switch (config files + env, no network), the status snapshot and the
 * queue counts, all read in parallel. Never throws: whatever cannot be read
 * is simply left out of the line.
 *
 * @module
 */
import { loadPluginConfig } from '../config/load.js';
import { isRecord, parseJson } from '../util/json.js';
import { ovSessionId } from '../session/ids.js';
import { storeLayout, resolveDataDir } from '../store/paths.js';
import { queueStats } from '../store/queue.js';
import type { QueueStats } from '../store/queue.js';
import { readStatus } from '../store/status.js';
import { importRunning, readImportStatus } from '../store/importStatus.js';
import { colorAllowed } from './format.js';
import { unapprovedPeerOf } from '../project/trustMarks.js';
import type { StatusLineFacts } from './format.js';

export interface StatusLineHost {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  now: number;
  /** The status-line stdin (the host's JSON), '' when none arrived. */
  stdinText: string;
}

export async function gatherStatusLineFacts(host: StatusLineHost): Promise<StatusLineFacts> {
  const dataDir = resolveDataDir(host.env, host.homeDir);
  // Only the master switch is needed here: never the CLI's stored plugin options (credentials), redrawn every 300 ms.
  const { settings } = loadPluginConfig({ env: host.env, homeDir: host.homeDir, readStoredOptions: false });
  const [snapshot, queue] = await Promise.all([
    readStatus(dataDir),
    queueStats(storeLayout(dataDir).queueDir, host.now).catch((): QueueStats | undefined => undefined),
  ]);
  const sessionId = sessionIdOf(host.stdinText);
  const importing = readImportStatus(dataDir);
  const unapprovedPeer = unapprovedPeerOf(dataDir, sessionId);
  return {
    enabled: settings.enabled,
    snapshot,
    ...(queue ? { queue } : {}),
    ...(sessionId ? { sessionId } : {}),
    ...(importing !== undefined && importRunning(importing, host.now)
      ? { importing: { done: importing.sessionsDone, total: importing.sessionsTotal } }
      : {}),
    ...(unapprovedPeer !== undefined ? { unapprovedPeer } : {}),
    now: host.now,
    color: colorAllowed(host.env),
  };
}

function sessionIdOf(text: string): string | undefined {
  // No or malformed stdin (run by hand): the line just shows no per-session recall.
  const value = parseJson(text);
  const id = isRecord(value) ? value['session_id'] : undefined;
  // The stages key the snapshot by the OpenViking session id (`cb-…`).
  return typeof id === 'string' && id ? ovSessionId(id) || undefined : undefined;
}
