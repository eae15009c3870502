/**
 * Which recall blocks in a prompt's folded context are ours (issue 29 item
 * 5): those whose mark (recall/blockMark.ts) is the one this session's key
 * gives. The context holds every plugin's hook output, so a block another
 * plugin injected (a repository's text that looks like ours) names no
 * memory on the card. The key is read through the module's file snapshot,
 * only when some entry holds a marked block, within the preparation's
 * bound; without one (none written yet, the host's files unreadable or not
 * answering: then not asked again this session), no block counts.
 *
 * @module
 */
import { blockMark, readMarkKey } from '../../recall/blockMark.js';
import { hostSessionIdOf, ovSessionId } from '../../session/ids.js';
import { resolveDataDir } from '../../store/paths.js';
import { bounded, PREPARE_MS } from '../deadline.js';
import { sessionEnv } from '../env/sessionEnv.js';
import { settle } from '../files/fetch.js';
import type { ClassicInput, Engine } from '../host.js';

export type IsOurs = (mark: string | undefined, body: string) => boolean;

const NONE: IsOurs = () => false;
/** A key read that did not answer in time: the files are stuck for this session; the card stops asking. */
let stuck = false;

/** The test a block must pass to be ours, for the prompt `e` and its folded context. Never throws: a failure accepts none. */
export async function ourBlocks($: Engine, e: ClassicInput, context: readonly string[] | undefined): Promise<IsOurs> {
  const sessionId = ovSessionId(hostSessionIdOf((e ?? {}) as { session_id?: unknown }));
  if (stuck || sessionId === '' || !(context ?? []).some((entry) => MARKED.test(entry))) return NONE;
  try {
    // Bounded as the module's preparation is: a `$.fs` call that never answers must not hold the prompt.
    const read = async () => {
      const view = await sessionEnv($);
      return settle($, 'record', () => readMarkKey(resolveDataDir(view.env, view.homeDir)));
    };
    const key = await bounded($, read(), PREPARE_MS, "reading the recall block's key").catch((error: unknown) => {
      stuck = true;
      throw error;
    });
    if (key === undefined) return NONE;
    return (mark, body) => mark !== undefined && mark === blockMark(key, sessionId, body);
  } catch {
    return NONE;
  }
}

/** A recall block with a mark, somewhere in an entry. */
const MARKED = /<openviking-context source="recall" mark="/;
