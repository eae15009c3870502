/**
 * A prompt whose best match is another project's memory is about that
 * project, and gets nothing of this one's (DESIGN D43). Under `peer_scope:
 * all` the server searches every project's memories and ranks another
 * project's lower by `other_peer_penalty`, but reports its raw score
 * (docs/host-facts.md F38); the block never shows it (projectScope.ts). When
 * such a memory scores above every one of this project's (and the user's
 * own) by more than `OTHER_PROJECT_MARGIN`, the prompt asks about the other
 * project ("who owns the snowflake account" typed in the invoicing
 * service), and this project's nearest memories only stand in for an
 * answer that is not here. Measured on the recall benchmark with the
 * penalty at 0.1 (at 0.3 another project's memory never reaches the
 * server's ten places): injection on prompts that no memory answers 87.0% →
 * 69.6% (tune) and 80.0% → 62.9% (held-out), hit@3 unchanged on both (a
 * margin under 0.05 cost one on tune). Entries without a score, and memory
 * folders, do not count. Pure.
 *
 * @module
 */
import type { ContextEntry } from '../openviking/types.js';
import { isMemoryFolder } from './memoryFolder.js';

export const OTHER_PROJECT_MARGIN = 0.06;

/** True when an entry `inScope` rejects outscores every entry it keeps by more than the margin. */
export function aboutAnotherProject(entries: readonly ContextEntry[], inScope: (uri: string) => boolean): boolean {
  let own = -Infinity;
  let other = -Infinity;
  for (const entry of entries) {
    if (entry.score === undefined || isMemoryFolder(entry.uri)) continue;
    if (inScope(entry.uri)) own = Math.max(own, entry.score);
    else other = Math.max(other, entry.score);
  }
  return other > own + OTHER_PROJECT_MARGIN;
}
