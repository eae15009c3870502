/**
 * The query for a short prompt carries the turn before it (DESIGN D43). A
 * follow-up ("and how does that go out to prod?", "so why does it see
 * nothing") names its subject only in the exchange before it, so a search
 * for the prompt's words alone finds memories of "prod" in general; with
 * the previous user message and the start of the answer in front of it, the
 * search finds the memory of the thing being talked about. Measured on the
 * recall benchmark's tune split (all-MiniLM-L6-v2 on OpenViking 0.5.2):
 * hit@3 77.6% → 82.4% (the user message alone: 80.0%); held-out 67.2% →
 * 71.3%. A long prompt says what it asks by itself and is searched as typed,
 * so what came before cannot pull it off its subject.
 *
 * The earlier turns leave the machine as the prompt does: through the
 * privacy filter (no `<private>` section, no secret, no injected block), each
 * clipped, and the whole query within the prompt's own length cap. Pure.
 *
 * @module
 */
import { outboundQuery } from '../transcript/privacy.js';
import type { LastExchange } from '../transcript/lastExchange.js';

/** Prompts of at most this many words get the previous exchange in their query. */
export const FOLLOW_UP_MAX_WORDS = 12;
/** Characters kept of the previous user message and of the answer (its start: what it was about). */
export const EXCHANGE_TURN_CHARS = 300;

export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

/** `query` with the previous exchange before it when the prompt is short; `query` itself otherwise. */
export function followUpQuery(query: string, previous: LastExchange, maxChars: number): string {
  if (wordCount(query) > FOLLOW_UP_MAX_WORDS) return query;
  const turns = [previous.user, previous.assistant]
    .map((turn) => (turn === undefined ? '' : outboundQuery(turn).slice(0, EXCHANGE_TURN_CHARS).trim()))
    .filter((turn) => turn !== '');
  if (turns.length === 0) return query;
  const joined = [...turns, query].join('\n');
  return joined.length <= maxChars ? joined : query;
}
