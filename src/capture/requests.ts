/**
 * The inbox between the hooks and the capture writer of one session.
 *
 * A Stop hook must answer at once, so it cannot wait for a worker that is
 * already busy with the same session; and a second worker cannot run beside
 * the first (one writer per session). So the hook drops a request file
 * (unique name, atomic write, no lock, no read) and starts a worker; whoever
 * holds the session's writer lock drains the inbox until it is empty, and
 * re-checks it after releasing the lock. A request is deleted only after a
 * pass that covered it completed, so a Stop that arrives while a worker runs,
 * or a SessionEnd racing a Stop, is picked up, never lost.
 *
 * `<dataDir>/capture/<key>.requests/<epoch-ms:15>-<random>.json`
 *
 * @module
 */
import { uniqueToken } from '../store/fastHash.js';
import { readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord, parseJson } from '../util/json.js';
import { writeJsonAtomic } from '../store/atomic.js';
import { requestDir } from './paths.js';
import { isValidPeerId } from '../project/remote.js';
import type { CaptureJob } from './pass.js';
import { sessionIdentityOf } from './state.js';
import type { SessionIdentity } from './state.js';

/** One hook's ask: capture this transcript into this session (and maybe commit). */
export interface CaptureRequest extends SessionIdentity {
  event: string;
  transcriptPath: string;
  subagent: boolean;
  commit: boolean;
  at: number;
  /** The project's peer id at the time of the turn (DESIGN D24): every message sent for this request carries it as `peer_id`. */
  peerId?: string;
}

export interface Inbox {
  /** File names, oldest first. */
  names: string[];
  requests: CaptureRequest[];
}

/** Drops a request; false when the disk refused (the caller logs). Never throws. */
export async function postRequest(dataDir: string, request: CaptureRequest): Promise<boolean> {
  const name = `${String(Math.max(0, Math.trunc(request.at))).padStart(15, '0')}-${uniqueToken()}.json`;
  try {
    // No fsync: a request lost to a power cut costs nothing, the transcript still holds the turn.
    await writeJsonAtomic(join(requestDir(dataDir, request.ovSessionId), name), request, { fsync: false });
    return true;
  } catch {
    return false;
  }
}

/** The waiting requests; unreadable ones are deleted (they carry nothing the transcript does not). */
export async function readInbox(dataDir: string, ovSessionId: string): Promise<Inbox> {
  const dir = requestDir(dataDir, ovSessionId);
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  } catch {
    return { names: [], requests: [] }; // no inbox yet
  }
  const inbox: Inbox = { names: [], requests: [] };
  for (const name of names) {
    const request = await readRequest(join(dir, name));
    if (request === undefined) await unlink(join(dir, name)).catch(() => undefined);
    else {
      inbox.names.push(name);
      inbox.requests.push(request);
    }
  }
  return inbox;
}

/** Deletes handled requests (already gone is fine). */
export async function removeRequests(dataDir: string, ovSessionId: string, names: readonly string[]): Promise<void> {
  const dir = requestDir(dataDir, ovSessionId);
  await Promise.all(names.map((name) => unlink(join(dir, name)).catch(() => undefined)));
}

/** One pass covers every waiting request: the newest transcript path, a commit if any asked for one. */
export function jobFor(requests: readonly CaptureRequest[]): CaptureJob | undefined {
  const newest = requests[requests.length - 1];
  if (newest === undefined) return undefined;
  return {
    identity: sessionIdentityOf(newest),
    transcriptPath: newest.transcriptPath,
    subagent: requests.some((request) => request.subagent),
    commit: requests.some((request) => request.commit),
    ...(requests.some((request) => request.event === 'SubagentStop') ? { subagentEnded: true } : {}),
    ...peerOf(requests),
  };
}

/** The newest request's peer; a request without one (commit-stale) takes the latest peer any request named. */
function peerOf(requests: readonly CaptureRequest[]): { peerId?: string } {
  for (let index = requests.length - 1; index >= 0; index--) {
    const peerId = requests[index]?.peerId;
    if (peerId !== undefined) return { peerId };
  }
  return {};
}

async function readRequest(path: string): Promise<CaptureRequest | undefined> {
  const value = parseJson(await readFile(path, 'utf8').catch(() => ''));
  if (!isRecord(value)) return undefined;
  const { event, ovSessionId, hostSessionId, workspace, agentId, transcriptPath, subagent, commit, at, peerId } = value;
  if (
    typeof ovSessionId !== 'string' ||
    ovSessionId === '' ||
    typeof transcriptPath !== 'string' ||
    transcriptPath === ''
  )
    return undefined;
  const request: CaptureRequest = {
    event: typeof event === 'string' ? event : '',
    ovSessionId,
    hostSessionId: typeof hostSessionId === 'string' ? hostSessionId : '',
    workspace: typeof workspace === 'string' ? workspace : '',
    transcriptPath,
    subagent: subagent === true,
    commit: commit === true,
    at: typeof at === 'number' ? at : 0,
  };
  if (typeof agentId === 'string') request.agentId = agentId;
  if (typeof peerId === 'string' && isValidPeerId(peerId)) request.peerId = peerId;
  return request;
}
