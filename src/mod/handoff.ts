/**
 * The module's side of the hand-off (protocol/handoff.ts, D30): while
 * the module's `next(e)` for an event kind it handled runs, the kind's flag
 * holds this host process's id, so our own shell hook of that event steps
 * aside before anything starts; everyone else's hooks run as usual.
 *
 * The flag is set just before `next(e)` and cleared after it, never left
 * standing for the session: a module the host unloads mid-session (a wedged
 * worker, FC13) or that stops answering leaves no flag that would keep
 * the shell path away. Calls of one kind may overlap (parallel tool calls):
 * the first to open sets the flag, the last to close clears it.
 *
 * A kind that failed (the host refused the variable, or the module's own
 * work for it failed: `giveUp`) is never handed off again this session.
 *
 * @module
 */
import type { HandoffKind } from '../protocol/handoff.js';
import type { Engine } from './host.js';

interface KindState {
  /** Calls of the kind whose `next(e)` is running. */
  open: number;
  /** Never hand this kind off again this session. */
  givenUp: boolean;
}

const kinds: Record<HandoffKind, KindState> = {
  guard: { open: 0, givenUp: false },
  prompt: { open: 0, givenUp: false },
  start: { open: 0, givenUp: false },
};

/**
 * Runs `next` with `kind` handed off to the module when `processId` is known
 * and the kind was not given up; otherwise just runs it.
 */
export async function withHandoff<R>($: Engine, kind: HandoffKind, processId: string | undefined, next: () => Promise<R>): Promise<R> {
  const state = kinds[kind];
  if (processId === undefined || state.givenUp) return next();
  state.open += 1;
  if (state.open === 1 && !(await writeFlag($, kind, processId))) {
    state.open -= 1;
    state.givenUp = true;
    return next();
  }
  try {
    return await next();
  } finally {
    state.open -= 1;
    if (state.open === 0) await writeFlag($, kind, undefined);
  }
}

/** The module failed at `kind`: the shell path keeps it for the rest of the session (its flag cleared). */
export async function giveUp($: Engine, kind: HandoffKind): Promise<void> {
  kinds[kind].givenUp = true;
  await writeFlag($, kind, undefined);
}

/**
 * Sets (or, with `undefined`, clears) `kind`'s flag; false when the host
 * refused or failed. Each name is spelled out: the host lists, and only
 * lets a module touch, the variables its source names literally.
 */
async function writeFlag($: Engine, kind: HandoffKind, value: string | undefined): Promise<boolean> {
  try {
    let answer: { deny?: string } | undefined;
    switch (kind) {
      case 'guard':
        answer = await $.env.set('OPENVIKING_MODULE_GUARD', value);
        break;
      case 'prompt':
        answer = await $.env.set('OPENVIKING_MODULE_PROMPT', value);
        break;
      case 'start':
        answer = await $.env.set('OPENVIKING_MODULE_START', value);
        break;
    }
    return answer?.deny === undefined;
  } catch {
    return false;
  }
}
