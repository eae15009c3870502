/**
 * Vocabulary of recall: what any tier yields and how a run ended. No
 * runtime code.
 *
 * @module
 */
import type { OvFailure } from '../openviking/types.js';
import type { RecallTier } from './tierCache.js';

/** One memory, whichever tier found it. `text` is raw (escaped only when rendered). */
export interface RecalledItem {
  uri: string;
  category?: string;
  score?: number;
  text: string;
}

export type RecallOutcome =
  | { status: 'hits'; tier: RecallTier; items: RecalledItem[] }
  /** The server answered and had nothing relevant. */
  | { status: 'empty'; tier: RecallTier }
  | { status: 'failed'; tier: RecallTier; failure: OvFailure };
