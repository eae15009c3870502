/**
 * Whether one past session is imported, and if not why (DESIGN D35). In
 * order, cheapest first:
 *
 * 1. written before `--since`: left out;
 * 2. imported before and unchanged since (ledger.ts): skipped unread;
 * 3. its first lines name no working folder (an empty or foreign file):
 *    nothing to import; outside the workspace asked for: not this import's;
 * 4. live: the session this command runs in, or a transcript written within
 *    `staleCommitIdleMs` (the idle time after which commit-stale may commit
 *    a session, D19): live capture takes it;
 * 5. the switches of its own folder and session id (D25): memory or
 *    capture off, or bypassed: skipped, nothing sent;
 * 6. captured live to its end and committed (its capture state): done;
 * 7. unknown here but already on the server (a data directory lost, or
 *    capture state removed by retention): skipped rather than sent twice
 *    (one `GET` of the session; a dry run sends nothing, so it does not
 *    ask).
 *
 * Everything else is imported into the session id live capture uses, under
 * the peer its folder derives today (D24).
 *
 * @module
 */
import type { PluginConfig } from '../config/types.js';
import type { OpenVikingClient } from '../openviking/types.js';
import { projectFor } from '../project/identity.js';
import { captureOffReason } from '../session/switches.js';
import { hasWorkLeft, loadCaptureState, type CaptureState } from '../capture/state.js';
import { importedAsIs, readImportRecord, type ImportRecord } from './ledger.js';
import { isWithin, readHead, withHead, type Transcript } from './scan.js';

export type SkipReason =
  'before --since' | 'imported before' | 'no working folder' | 'live' | 'off' | 'captured live' | 'on the server';

/** A session to import: the transcript, its folder and the peer its messages carry. */
export interface Candidate {
  transcript: Transcript;
  cwd: string;
  peerId?: string;
  /** Its capture state, when live capture (or an earlier import) wrote one. */
  state?: CaptureState;
}

export type Judgement =
  | { candidate: Candidate }
  | { skip: SkipReason; detail?: string; transcript: Transcript; cwd?: string }
  /** Not in the workspace asked for. */
  | { outside: true };

export interface JudgeContext {
  config: PluginConfig;
  homeDir: string;
  dataDir: string;
  now: number;
  /** The workspace asked for; undefined with `--all`. */
  workspace?: string;
  since?: number;
  /** Host session ids of the session(s) this command runs in. */
  liveSessionIds: ReadonlySet<string>;
  /** Undefined for a dry run: nothing is asked. */
  client?: OpenVikingClient;
}

/** The judgement of one session: the steps of the header, in order, each a few lines below. */
export async function judge(found: Transcript, ctx: JudgeContext): Promise<Judgement> {
  const record = readImportRecord(ctx.dataDir, found.ovSessionId);
  const byRecord = judgeByRecord(found, record, ctx);
  if (byRecord !== undefined) return byRecord;
  const head = await readHead(found);
  if (head.cwd === undefined) return ctx.workspace === undefined ? skip('no working folder', found) : { outside: true };
  if (outside(head.cwd, ctx)) return { outside: true };
  const transcript = withHead(found, head);
  const { cwd } = head;
  const live = liveReason(transcript, ctx);
  if (live !== undefined) return skip('live', transcript, cwd, live);
  const { project } = projectFor(ctx.config, cwd, ctx.homeDir, ctx.now);
  const off = captureOffReason({ config: ctx.config, project, sessionId: transcript.hostSessionId, workspace: cwd });
  if (off !== undefined) return skip('off', transcript, cwd, off);
  const state = await loadCaptureState(ctx.dataDir, transcript.ovSessionId);
  if (state !== undefined && capturedToEnd(state, transcript)) return skip('captured live', transcript, cwd);
  if (state === undefined && record === undefined && (await knownOnServer(transcript, ctx.client)))
    return skip('on the server', transcript, cwd);
  return {
    candidate: {
      transcript,
      cwd,
      ...(project.peerId !== undefined ? { peerId: project.peerId } : {}),
      ...(state !== undefined ? { state } : {}),
    },
  };
}

function skip(reason: SkipReason, transcript: Transcript, cwd?: string, detail?: string): Judgement {
  return {
    skip: reason,
    transcript,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(detail !== undefined ? { detail } : {}),
  };
}

/** Steps 1 and 2, decided before the transcript is read: too old for `--since`, or imported before and unchanged. */
function judgeByRecord(found: Transcript, record: ImportRecord | undefined, ctx: JudgeContext): Judgement | undefined {
  if (ctx.since !== undefined && found.mtimeMs < ctx.since)
    return record !== undefined && outside(record.cwd, ctx) ? { outside: true } : skip('before --since', found);
  if (importedAsIs(record, found) && record !== undefined)
    return outside(record.cwd, ctx) ? { outside: true } : skip('imported before', found, record.cwd);
  return undefined;
}

/** Step 4: why live capture takes this session (the one this command runs in, or written too recently), if it does. */
function liveReason(transcript: Transcript, ctx: JudgeContext): string | undefined {
  if (ctx.liveSessionIds.has(transcript.hostSessionId)) return 'this session';
  if (ctx.now - transcript.mtimeMs < ctx.config.settings.staleCommitIdleMs) return 'written in the last minutes';
  return undefined;
}

/** Step 7: the server already holds messages or commits of this session (never asked in a dry run: no client). */
async function knownOnServer(transcript: Transcript, client: OpenVikingClient | undefined): Promise<boolean> {
  if (client === undefined) return false;
  const known = await client.getSession(transcript.ovSessionId);
  return (
    known.ok &&
    (known.result.total_message_count ?? known.result.message_count ?? 0) + (known.result.commit_count ?? 0) > 0
  );
}

function outside(cwd: string, ctx: JudgeContext): boolean {
  return ctx.workspace !== undefined && !isWithin(cwd, ctx.workspace);
}

/** Live capture read this very file to its end, and nothing of it waits to be sent or archived. */
function capturedToEnd(state: CaptureState, transcript: Transcript): boolean {
  return (
    !hasWorkLeft(state) &&
    state.cursor !== undefined &&
    state.cursor.fileId === transcript.fileId &&
    state.cursor.offset >= transcript.size
  );
}
