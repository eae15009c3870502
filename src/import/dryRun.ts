/**
 * What an import would send for one session, sending nothing (DESIGN D35):
 * the capture pass's own reading and planning (capture/tail.ts: privacy
 * filter, redaction, acknowledged records skipped), from the session's
 * capture cursor when live capture sent part of it, in the same slices.
 *
 * @module
 */
import type { Settings } from '../config/types.js';
import { emptyCaptureState } from '../capture/state.js';
import { planTail } from '../capture/tail.js';
import { cursorAfterRecords } from '../transcript/index.js';
import { utf8Length } from '../util/utf8.js';
import type { Candidate } from './judge.js';
import { endsWithCutLine } from './scan.js';
import { READ_LIMIT_BYTES } from './session.js';

export interface WouldSend {
  messages: number;
  /** User messages among them. */
  turns: number;
  /** Bytes of the messages as sent (JSON). */
  bytes: number;
  skippedLines: number;
}

export async function wouldSend(
  candidate: Candidate,
  settings: Pick<Settings, 'captureAssistantTurns' | 'captureToolMaxChars'>,
): Promise<WouldSend> {
  const { transcript } = candidate;
  const state = structuredClone(
    candidate.state ??
      emptyCaptureState({
        ovSessionId: transcript.ovSessionId,
        hostSessionId: transcript.hostSessionId,
        workspace: candidate.cwd,
      }),
  );
  const total: WouldSend = { messages: 0, turns: 0, bytes: 0, skippedLines: 0 };
  let limit = READ_LIMIT_BYTES;
  for (;;) {
    const before = state.cursor?.path === transcript.path ? state.cursor.offset : 0;
    const tail = await planTail(
      state,
      {
        transcriptPath: transcript.path,
        subagent: transcript.agentId !== undefined,
        readLimitBytes: limit,
        ...(candidate.peerId !== undefined ? { peerId: candidate.peerId } : {}),
      },
      settings,
    );
    if ('error' in tail) return total;
    if (tail.format !== undefined) state.format = tail.format;
    total.skippedLines += tail.read.skippedLines;
    for (const item of tail.items) {
      if (item.message === undefined) continue;
      total.messages += 1;
      if (item.message.role === 'user') total.turns += 1;
      total.bytes += utf8Length(JSON.stringify(item.message));
    }
    state.cursor = cursorAfterRecords(tail.read, tail.consumed);
    if (tail.read.atEnd)
      return (await endsWithCutLine(transcript.path)) ? { ...total, skippedLines: total.skippedLines + 1 } : total;
    limit = state.cursor.offset > before ? READ_LIMIT_BYTES : limit * 2;
  }
}
