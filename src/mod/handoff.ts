/**
 * The module's side of the hand-off (protocol/handoff.ts, D30, D31): while
 * the module's `next(e)` for an event kind it took over runs, the kind's flag
 * holds this host process's id, so our own hook command of that event steps
 * aside before anything starts; everyone else's hooks run as usual. Only
 * the shell that process itself starts passes the hook command's test
 * (`$PPID`): a process that inherits the flag never does.
 *
 * The flag is set just before `next(e)` and cleared after it, never left
 * standing for the session: the window is that event's hook commands. A
 * module the host unloads inside it (a wedged worker, FC13) leaves the flag
 * standing, and that kind stays with nobody for the rest of the session (a
 * prompt without recall, a start without its block; the guard has no flag).
 * Calls of one kind may overlap (a repeated delivery): the first to open
 * sets the flag, the last to close clears it.
 *
 * A kind that failed (the host refused the variable, or the module's own
 * work for it failed: `giveUp`) is never handed off again this session.
 *
 * @module
 */
import type { HandoffKind } from '../protocol/handoff.js';
import type { Engine } from './host.js';

interface KindState {
  /** Calls of the kind that opened the hand-off and have not closed it. */
  open: number;
  /** The flag's write of the first open call (the others wait for it). */
  opening?: Promise<boolean>;
  /** Never hand this kind off again this session. */
  givenUp: boolean;
}

const kinds: Record<HandoffKind, KindState> = {
  prompt: { open: 0, givenUp: false },
  start: { open: 0, givenUp: false },
};

/**
 * Opens a hand-off of `kind`: the flag is set by the first open call (the
 * others wait for that write); false when the kind is not handed off (no
 * process id, given up, or the host refused the variable: then given up).
 * Every call that got true must `closeHandoff` once.
 */
export async function openHandoff($: Engine, kind: HandoffKind, processId: string | undefined): Promise<boolean> {
  const state = kinds[kind];
  if (processId === undefined || state.givenUp) return false;
  state.open += 1;
  if (state.open === 1) state.opening = writeFlag($, kind, processId);
  if (await (state.opening ?? Promise.resolve(true))) return true;
  state.open -= 1;
  state.givenUp = true;
  return false;
}

/** Closes one hand-off of `kind`; the last to close clears the flag. */
export async function closeHandoff($: Engine, kind: HandoffKind): Promise<void> {
  const state = kinds[kind];
  // Given up meanwhile: the flag is already cleared.
  if (state.open === 0) return;
  state.open -= 1;
  if (state.open > 0) return;
  state.opening = undefined;
  await writeFlag($, kind, undefined);
}

/** Whether `kind` may be handed off this session (a host with a process id, the kind not given up). */
export function mayHandOff(kind: HandoffKind, processId: string | undefined): processId is string {
  return processId !== undefined && !kinds[kind].givenUp;
}

/** The module failed at `kind`: the shell path keeps it for the rest of the session (its flag cleared, whatever is open). */
export async function giveUp($: Engine, kind: HandoffKind): Promise<void> {
  kinds[kind].givenUp = true;
  kinds[kind].open = 0;
  kinds[kind].opening = undefined;
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
