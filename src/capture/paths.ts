/**
 * Where capture keeps its files under the data directory, in a module of
 * its own so the hook (which only posts a request) loads nothing else:
 *
 * | path                               | what                                   |
 * |------------------------------------|----------------------------------------|
 * | `capture/<key>.json`               | the session's capture state (state.ts) |
 * | `capture/<key>.requests/*.json`    | the session's request inbox            |
 *
 * `<key>` = `safeFileKey(ovSessionId)`.
 *
 * @module
 */
import { join } from 'node:path';
import { safeFileKey } from '../store/paths.js';

/** `<dataDir>/capture`. */
export function captureDir(dataDir: string): string {
  return join(dataDir, 'capture');
}

/** `<dataDir>/capture/<key>.json`. */
export function captureStateFile(dataDir: string, ovSessionId: string): string {
  return join(captureDir(dataDir), `${safeFileKey(ovSessionId)}.json`);
}

/** `<dataDir>/capture/<key>.requests`. */
export function requestDir(dataDir: string, ovSessionId: string): string {
  return join(captureDir(dataDir), `${safeFileKey(ovSessionId)}.requests`);
}
