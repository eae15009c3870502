/**
 * Per-session state files: versioned JSON whose fields belong to the stages.
 *
 * The start, prompt and capture stages each own fields of one session's
 * state, so this module stays generic: the caller passes the shape as a type
 * parameter together with a validator that narrows the stored fields. On
 * disk a state is `{version: 1, ...fields}`. Anything unusable (missing,
 * corrupt, written by a newer plugin, rejected by the validator) reads as
 * absent, with a warning the caller logs, so a bad file costs one fresh
 * start and never an exception in the host.
 *
 * Read-modify-write goes through `updateSessionState`, which holds the
 * session's lock around the whole cycle; a lock timeout skips the update.
 *
 * @module
 */
import { unlink } from 'node:fs/promises';
import { readJsonDetailed, writeJsonAtomic } from './atomic.js';
import { errorCode, errorMessage } from '../util/errors.js';
import { withLock } from './lock.js';
import type { LockOptions } from './lock.js';

export { SESSION_STATE_VERSION } from './stateVersion.js';
import { SESSION_STATE_VERSION } from './stateVersion.js';

/** Narrows the stored fields (without `version`) to the caller's shape, or rejects them with undefined. */
export type StateValidator<S> = (fields: Readonly<Record<string, unknown>>) => S | undefined;

export type LoadedState<S> = { status: 'found'; state: S } | { status: 'absent'; warning?: string };

export type StoreWriteResult = { ok: true } | { ok: false; message: string };

export type UpdateResult<S> =
  /** `state` is what is on disk now; `changed` says whether this call wrote it. */
  | { ok: true; state: S | undefined; changed: boolean; warning?: string }
  | { ok: false; reason: 'timeout' | 'error'; message?: string };

/** Where a session's state lives and which lock guards it (see paths.ts). */
export interface SessionStatePaths {
  file: string;
  lock: string;
}

/** Reads one state file; never throws. */
export async function loadSessionState<S>(file: string, validate: StateValidator<S>): Promise<LoadedState<S>> {
  const read = await readJsonDetailed(file);
  if (read.status === 'missing') return { status: 'absent' };
  if (read.status !== 'ok') return absent(`${read.status} state file ${file}: ${read.reason}`);
  const value = read.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return absent(`state file ${file} is not an object`);
  const { version, ...fields } = value as Record<string, unknown>;
  if (version !== SESSION_STATE_VERSION) {
    return absent(
      `state file ${file} has version ${JSON.stringify(version)}; this plugin reads ${SESSION_STATE_VERSION}`,
    );
  }
  let state: S | undefined;
  try {
    state = validate(fields);
  } catch (error) {
    return absent(`validator threw on ${file}: ${errorMessage(error)}`);
  }
  return state === undefined ? absent(`state file ${file} failed validation`) : { status: 'found', state };
}

function absent(warning: string): LoadedState<never> {
  return { status: 'absent', warning };
}

/** Writes `{version: 1, ...state}` atomically; never throws. A `version` field in `state` is ignored. */
export async function saveSessionState<S extends object>(file: string, state: S): Promise<StoreWriteResult> {
  try {
    const { version: _ignored, ...fields } = state as Record<string, unknown>;
    await writeJsonAtomic(file, { version: SESSION_STATE_VERSION, ...fields });
    return { ok: true };
  } catch (error) {
    return { ok: false, message: errorMessage(error) };
  }
}

/** Removes a state file (missing is fine); never throws. */
export async function deleteSessionState(file: string): Promise<StoreWriteResult> {
  try {
    await unlink(file);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') return { ok: false, message: errorMessage(error) };
  }
  return { ok: true };
}

export interface UpdateOptions<S> {
  validate: StateValidator<S>;
  lock: LockOptions;
}

/**
 * Under the session lock: load, `mutate(current)`, save. `mutate` returns
 * the new state, or undefined to leave the file as it is. Never throws: a
 * lock timeout, an I/O failure or an exception from `mutate` comes back as
 * `ok:false` and nothing is written.
 */
export async function updateSessionState<S extends object>(
  paths: SessionStatePaths,
  options: UpdateOptions<S>,
  mutate: (current: S | undefined) => S | undefined | Promise<S | undefined>,
): Promise<UpdateResult<S>> {
  try {
    const locked = await withLock(paths.lock, options.lock, () => updateLocked(paths.file, options.validate, mutate));
    return locked.ok ? locked.value : locked;
  } catch (error) {
    return { ok: false, reason: 'error', message: errorMessage(error) };
  }
}

async function updateLocked<S extends object>(
  file: string,
  validate: StateValidator<S>,
  mutate: (current: S | undefined) => S | undefined | Promise<S | undefined>,
): Promise<UpdateResult<S>> {
  const loaded = await loadSessionState(file, validate);
  const current = loaded.status === 'found' ? loaded.state : undefined;
  const warning = loaded.status === 'absent' ? loaded.warning : undefined;
  const next = await mutate(current);
  if (next === undefined) return { ok: true, state: current, changed: false, ...(warning ? { warning } : {}) };
  const saved = await saveSessionState(file, next);
  if (!saved.ok) return { ok: false, reason: 'error', message: saved.message };
  return { ok: true, state: next, changed: true, ...(warning ? { warning } : {}) };
}
