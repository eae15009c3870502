/**
 * Reads one of the user's JSON config files (ovcli.conf, ov.conf) without
 * ever letting it crash a hook or poison an object.
 *
 * These files are hand-edited and shared with other OpenViking tools, so a
 * typo must cost one clear warning that names the file, and then the file is
 * ignored as if absent. A file is refused when it is not a regular file (a
 * FIFO, a device, a directory: store/smallFile.ts reads it without blocking),
 * is larger than 1 MiB (hooks must start fast; real files are a few hundred
 * bytes), is not JSON, is not a JSON object, or contains a `__proto__`,
 * `constructor` or `prototype` key anywhere (prototype pollution bait;
 * nothing legitimate uses those names).
 *
 * @module
 */
import { isAbsolute, join, resolve } from 'node:path';
import { isRecord, type JsonRecord } from '../util/json.js';
import { readSmallFile } from '../store/smallFile.js';
import { errorMessage } from '../util/errors.js';
import { describeJsonSyntax } from '../util/jsonSyntax.js';

/** Largest config file read. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Returns the file's text, `undefined` when it does not exist; throws for anything else (a {@link RefusedFile} says why in words). */
export type ReadTextFile = (path: string) => string | undefined;

/** Thrown by {@link readSmallTextFile} for a file that exists but is not read; `message` follows the file's name. */
export class RefusedFile extends Error {
  override name = 'RefusedFile';
}

export interface LoadedConfigFile {
  path: string;
  /** The parsed object; `undefined` when the file is missing or was refused. */
  value?: JsonRecord;
  /** True when the file exists (also when it was refused), for doctor and the change watch. */
  exists: boolean;
  warning?: string;
}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** The default reader: a regular file of at most MAX_CONFIG_BYTES, read without blocking (store/smallFile.ts). */
export function readSmallTextFile(path: string): string | undefined {
  return readTextAtMost(path, MAX_CONFIG_BYTES);
}

/** A regular file of at most `maxBytes`, read without blocking; undefined when missing, a {@link RefusedFile} otherwise. */
export function readTextAtMost(path: string, maxBytes: number): string | undefined {
  const file = readSmallFile(path, maxBytes);
  if (file.absent === undefined) return file.text;
  if (file.absent === 'missing') return undefined;
  throw new RefusedFile(file.why);
}

/** Reads and checks one config file; never throws. `shownAs` is the name used in warnings. */
export function loadConfigFile(path: string, shownAs: string, readFile: ReadTextFile): LoadedConfigFile {
  let text: string | undefined;
  try {
    text = readFile(path);
  } catch (error) {
    return refused(
      path,
      shownAs,
      error instanceof RefusedFile ? error.message : `cannot be read (${errorMessage(error)})`,
    );
  }
  if (text === undefined) return { path, exists: false };
  if (text.length > MAX_CONFIG_BYTES) return refused(path, shownAs, `is larger than ${MAX_CONFIG_BYTES} bytes`);
  if (!text.trim()) return refused(path, shownAs, 'is empty');

  let forbidden: string | undefined;
  let value: unknown;
  try {
    value = JSON.parse(text, (key, entry: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) forbidden ??= key;
      return entry;
    });
  } catch {
    // Located by our own scanner: the engine's message quotes the text (a secret, if the file is a link to one).
    return refused(path, shownAs, `is not valid JSON (${describeJsonSyntax(text)})`);
  }
  if (forbidden !== undefined) return refused(path, shownAs, `contains the forbidden key "${forbidden}"`);
  if (!isRecord(value)) return refused(path, shownAs, 'is not a JSON object');
  return { path, exists: true, value };
}

function refused(path: string, shownAs: string, reason: string): LoadedConfigFile {
  return { path, exists: true, warning: `${shownAs} ${reason}; ignoring it` };
}

/** Expands a leading `~` and makes the path absolute (relative paths are taken from the home directory's point of view: never the cwd, which differs per hook). */
export function expandHome(path: string, homeDir: string): string {
  if (path === '~') return homeDir;
  if (path.startsWith('~/')) return join(homeDir, path.slice(2));
  return isAbsolute(path) ? path : resolve(homeDir, path);
}

/** `~/…` when the path is under the home directory, for messages and sources. */
export function displayPath(path: string, homeDir: string): string {
  const home = homeDir.endsWith('/') ? homeDir : `${homeDir}/`;
  return path.startsWith(home) ? `~/${path.slice(home.length)}` : path;
}
