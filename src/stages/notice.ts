/**
 * One line for the user when memory is off (DESIGN D21, issue 15 item 5).
 *
 * Nothing the plugin knows reached the user unless they ran doctor. So
 * SessionStart, which already talks to the server, says it in the
 * envelope's `systemMessage` (shown to the user, never to the model) when
 * its own requests met an unreachable server or a refused key, when the only
 * key is a root key, or when writes were given up (dead letters newer than
 * the last ones announced). Once per session: a mark file per session,
 * created exclusively, so a second delivery or a resume says nothing; dead
 * letters count as announced only when a line about them was shown. The
 * healthy path costs no request and no write: the failures are those of the
 * start's own calls, and the dead-letter check is one `readdir`.
 *
 * A privacy switch set to a word it does not understand reads as the value
 * that sends less (config/settings.ts, issue 29 item 7), and a peer a
 * committed workspace file names waits for the user's approval (D32): the
 * same notice says those first, once per session (the switches also where
 * they leave memory off).
 *
 * @module
 */
import { join } from 'node:path';
import type { Credentials, PluginConfig } from '../config/types.js';
import type { Project } from '../project/identity.js';
import { unclearSwitches } from '../project/workspaceConfig.js';
import { observeResults } from '../openviking/observe.js';
import type { OpenVikingClient, OvFailure } from '../openviking/types.js';
import { serverStatusOf, type ServerStatus } from '../store/status.js';
import { ensurePrivateDirSync, readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { createFileExclusive, namesInDir, removeFileQuietly, statQuietly } from '../store/fsUtil.js';
import { safeFileKey, storeLayout } from '../store/paths.js';
import { parseDeadAt, queuePaths } from '../store/queueFiles.js';
import { displayUrl } from '../openviking/displayUrl.js';
import { printable } from '../util/printable.js';

const DOCTOR = 'Run /openviking:doctor for the fix.';
/** A session is not resumed a month later; its mark can go. */
const MARK_TTL_MS = 30 * 24 * 60 * 60_000;

/** A client whose calls are observed: the first failure that says "memory is off" is kept, and the last answer (status line). */
export interface WatchedClient {
  client: OpenVikingClient;
  failure(): OvFailure | undefined;
  /** Whether the server answered the last call, or undefined when none was made. */
  serverSeen(): ServerStatus | undefined;
}

/** Wraps every method of `client`; results pass through unchanged. */
export function watchFailures(client: OpenVikingClient, now: () => number): WatchedClient {
  let first: OvFailure | undefined;
  let seen: ServerStatus | undefined;
  const watched = observeResults(client, (result) => {
    seen = serverStatusOf(result, now());
    if (!result.ok && first === undefined && memoryOffReason(result) !== undefined) first = result;
  });
  return { client: watched, failure: () => first, serverSeen: () => seen };
}

/** Why a failure means memory is off for this session, or undefined (a slow or faulty answer is not "off"). */
function memoryOffReason(failure: OvFailure): 'unreachable' | 'refused' | 'forbidden' | undefined {
  if (failure.status === 0 && (failure.code === 'NETWORK' || failure.code === 'TIMEOUT')) return 'unreachable';
  if (failure.status === 401) return 'refused';
  if (failure.status === 403) return 'forbidden';
  return undefined;
}

export interface NoticeInput {
  dataDir: string;
  /** The session the notice is for (`cb-…`); '' means no session id: never noticed. */
  sessionId: string;
  credentials: Pick<Credentials, 'baseUrl' | 'rootKeyOnly'>;
  failure: OvFailure | undefined;
  now: number;
  /** Privacy switches set to a word they do not understand, as set (`unclearSwitchesOf`). */
  unclear?: readonly string[];
  /** Memory is off here (nothing was asked of the server): only the line about the switches, if any. */
  off?: boolean;
  /** The line about a workspace peer the user has not approved (trustNotice.ts), if any. */
  trust?: string | undefined;
}

/** The privacy switches of a session's configuration and workspace files that read as "send less" because their word was not understood. */
export function unclearSwitchesOf(
  config: Pick<PluginConfig, 'failedClosed'>,
  project: Pick<Project, 'config'>,
): string[] {
  return [...Object.values(config.failedClosed ?? {}), ...unclearSwitches(project.config)];
}

/** One line naming them, or undefined. */
function unclearLine(unclear: readonly string[] | undefined): string | undefined {
  if (unclear === undefined || unclear.length === 0) return undefined;
  const named = unclear.join('; ');
  return `OpenViking: ${unclear.length === 1 ? 'a privacy switch is' : 'privacy switches are'} set to a word it does not understand (${named}): read as the value that sends less until fixed. ${DOCTOR}`;
}

/** The line to show, at most once per session; undefined on a healthy start. Never throws. */
export function memoryOffNotice(input: NoticeInput): string | undefined {
  try {
    const notice = noticeFor(input);
    if (notice === undefined || input.sessionId === '') return undefined;
    if (!claimSessionNotice(input.dataDir, input.sessionId, input.now)) return undefined;
    notice.announced?.();
    // Shown to a person: it names configured values and paths (util/printable.ts).
    return printable(notice.text);
  } catch {
    return undefined; // a notice is a courtesy: never a reason to fail the start
  }
}

/** The line, and what to record once it is really shown (dead letters count as told only then). */
interface Notice {
  text: string;
  announced?: () => void;
}

function noticeFor(input: NoticeInput): Notice | undefined {
  const configured = [unclearLine(input.unclear), input.off === true ? undefined : input.trust].filter(
    (line): line is string => line !== undefined,
  );
  const other = input.off === true ? undefined : serverNotice(input);
  if (configured.length === 0) return other;
  const text = [...configured, ...(other === undefined ? [] : [other.text])].join('\n');
  return other === undefined ? { text } : { ...other, text };
}

function serverNotice({ dataDir, credentials, failure }: NoticeInput): Notice | undefined {
  const reason = failure === undefined ? undefined : memoryOffReason(failure);
  if (credentials.rootKeyOnly || reason === 'forbidden') {
    return { text: `OpenViking memory is off: the server refuses this key for memory (a root key?). ${DOCTOR}` };
  }
  if (reason === 'refused')
    return {
      text: `OpenViking memory is off: the server at ${displayUrl(credentials.baseUrl, true)} refused the API key. ${DOCTOR}`,
    };
  // An empty URL is a configured one that is not a URL (config/credentials.ts): nothing was sent anywhere.
  if (reason === 'unreachable' && credentials.baseUrl === '')
    return { text: `OpenViking memory is off: the configured server URL is not an http(s) URL. ${DOCTOR}` };
  if (reason === 'unreachable')
    return {
      text: `OpenViking memory is off: no server answers at ${displayUrl(credentials.baseUrl, true)}. ${DOCTOR}`,
    };
  const dead = newDeadLetters(dataDir);
  if (dead === undefined) return undefined;
  return {
    text: `OpenViking gave up on ${dead.count} queued memory write${dead.count === 1 ? '' : 's'}. ${DOCTOR}`,
    announced: () => writeFileAtomicSync(dead.mark, JSON.stringify({ upTo: dead.newestAt })),
  };
}

function noticesDir(dataDir: string): string {
  return join(storeLayout(dataDir).root, 'notices');
}

/** Dead letters given up after the newest one already announced (by their `deadAt`), or undefined when none. */
function newDeadLetters(dataDir: string): { count: number; newestAt: number; mark: string } | undefined {
  // No dead-letter folder: nothing was ever given up.
  const names = namesInDir(queuePaths(storeLayout(dataDir).queueDir).deadDir);
  if (names.length === 0) return undefined;
  const mark = join(noticesDir(dataDir), 'dead-letters.json');
  const announcedUpTo = readAnnounced(mark);
  const fresh = names.map(parseDeadAt).filter((at): at is number => at !== undefined && at > announcedUpTo);
  return fresh.length === 0 ? undefined : { count: fresh.length, newestAt: Math.max(...fresh), mark };
}

function readAnnounced(path: string): number {
  const upTo = (readJsonSync(path) as { upTo?: unknown } | undefined)?.upTo;
  return typeof upTo === 'number' ? upTo : 0; // 0: never announced
}

/** True for the first caller of this session (exclusive create), false after. Marks older than a month go. */
function claimSessionNotice(dataDir: string, sessionId: string, now: number): boolean {
  const dir = noticesDir(dataDir);
  ensurePrivateDirSync(dir);
  sweepOldMarks(dir, now);
  // False: already told this session (or it cannot be recorded: then say nothing rather than repeat).
  return createFileExclusive(join(dir, `${safeFileKey(sessionId)}.notified`));
}

/** Runs only when there is something to say, so a healthy start never pays for it. */
function sweepOldMarks(dir: string, now: number): void {
  for (const name of namesInDir(dir)) {
    if (!name.endsWith('.notified')) continue;
    const path = join(dir, name);
    const mtime = statQuietly(path)?.mtimeMs;
    if (mtime !== undefined && now - mtime > MARK_TTL_MS) removeFileQuietly(path);
  }
}
