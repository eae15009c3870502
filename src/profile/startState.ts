/**
 * What makes SessionStart idempotent: per session, the block answered for
 * each `source`, and when. CodeBuddy can deliver SessionStart twice, even
 * concurrently (seed 000 §3); the second delivery waits for the first under
 * the session's start lock and answers with the same block, without
 * replaying or fetching again. An answer is reused only for a short while,
 * so a real later resume or compaction of the same session fetches afresh.
 *
 * Read and written with synchronous calls (DESIGN D14): a few hundred bytes
 * on the start hook's clock, where each thread-pool round trip costs more
 * than the call. Same file format as store/sessionState.ts (`version` 1).
 *
 * @module
 */
import { isRecord } from '../util/json.js';
import { readJsonSync, writeFileAtomicSync } from '../store/atomic.js';
import { SESSION_STATE_VERSION } from '../store/stateVersion.js';

/** How long an answer is reused for a repeated delivery of the same source. */
export const START_ANSWER_REUSE_MS = 2 * 60_000;

export interface StartAnswer {
  /** The block ('' when there was nothing to inject). */
  text: string;
  at: number;
}

export interface StartState {
  answers: Record<string, StartAnswer>;
}

export function readStartState(fields: Readonly<Record<string, unknown>>): StartState | undefined {
  const answers = fields['answers'];
  if (!isRecord(answers)) return undefined;
  const valid: Record<string, StartAnswer> = {};
  for (const [source, answer] of Object.entries(answers)) {
    if (source === '__proto__' || !isRecord(answer)) continue;
    if (typeof answer['text'] === 'string' && typeof answer['at'] === 'number')
      valid[source] = { text: answer['text'], at: answer['at'] };
  }
  return { answers: valid };
}

/** The stored state, or undefined (missing, unreadable, another version). Never throws. */
export function loadStartState(file: string): StartState | undefined {
  const value = readJsonSync(file);
  if (!isRecord(value) || value['version'] !== SESSION_STATE_VERSION) return undefined;
  return readStartState(value);
}

/**
 * Stores `state` atomically, without fsync: a cache for repeated deliveries
 * (DESIGN F4) that a power cut may lose. False when the disk refused.
 */
export function saveStartState(file: string, state: StartState): boolean {
  try {
    writeFileAtomicSync(file, JSON.stringify({ version: SESSION_STATE_VERSION, ...state }));
    return true;
  } catch {
    return false;
  }
}

/** The reusable answer for `source`, if one is fresh. */
export function reusableAnswer(state: StartState | undefined, source: string, now: number): StartAnswer | undefined {
  const answer = state?.answers[source];
  return answer !== undefined && now - answer.at >= 0 && now - answer.at < START_ANSWER_REUSE_MS ? answer : undefined;
}

/** The state with `answer` recorded for `source`. */
export function withAnswer(state: StartState | undefined, source: string, answer: StartAnswer): StartState {
  return { answers: { ...(state?.answers ?? {}), [source]: answer } };
}
