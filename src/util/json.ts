/**
 * Hand-written narrowing for untrusted JSON, small enough for hook code.
 *
 * Hooks cannot afford a schema library at start-up (http.ts), yet a reply of
 * the wrong shape must become a clear failure rather than a crash three calls
 * later. These helpers are lenient where servers differ (extra keys ignored,
 * `null` read as absent) and strict where the plugin would misbehave (a list
 * that is not an array, a URI that is not a string). A violation throws
 * `ShapeError`, which the client turns into a `BAD_RESPONSE` result; nothing
 * escapes the client.
 *
 * @module
 */

/** The value does not have the shape the plugin reads. `path` names the spot, e.g. `entries[2].uri`. */
export class ShapeError extends Error {
  constructor(
    readonly path: string,
    expected: string,
    actual: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${describe(actual)}`);
    this.name = 'ShapeError';
  }
}

export type JsonRecord = Record<string, unknown>;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` parsed, or undefined when it is not JSON (no JSON text parses to `undefined`). Never throws. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function record(value: unknown, path: string): JsonRecord {
  if (!isRecord(value)) throw new ShapeError(path, 'object', value);
  return value;
}

export function requiredString(source: JsonRecord, key: string, path: string): string {
  const value = source[key];
  if (typeof value !== 'string') throw new ShapeError(`${path}.${key}`, 'string', value);
  return value;
}

export function optionalString(source: JsonRecord, key: string, path: string): string | undefined {
  return optional(source, key, path, 'string', (v): v is string => typeof v === 'string');
}

export function optionalNumber(source: JsonRecord, key: string, path: string): number | undefined {
  return optional(source, key, path, 'number', (v): v is number => typeof v === 'number' && Number.isFinite(v));
}

export function optionalBoolean(source: JsonRecord, key: string, path: string): boolean | undefined {
  return optional(source, key, path, 'boolean', (v): v is boolean => typeof v === 'boolean');
}

/** `null` and absence both read as `[]`; anything else must be an array whose items pass `item`. */
export function listOf<T>(
  source: JsonRecord,
  key: string,
  path: string,
  item: (value: unknown, path: string) => T,
): T[] {
  const value = source[key];
  if (value === undefined || value === null) return [];
  return arrayOf(value, `${path}.${key}`, item);
}

export function arrayOf<T>(value: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) throw new ShapeError(path, 'array', value);
  return value.map((entry, index) => item(entry, `${path}[${index}]`));
}

function optional<T>(
  source: JsonRecord,
  key: string,
  path: string,
  expected: string,
  test: (v: unknown) => v is T,
): T | undefined {
  const value = source[key];
  if (value === undefined || value === null) return undefined;
  if (!test(value)) throw new ShapeError(`${path}.${key}`, expected, value);
  return value;
}

/** Copies only the defined values, so results carry no `undefined` keys. */
export function compact<T extends object>(value: T): T {
  const out: JsonRecord = {};
  for (const [key, entry] of Object.entries(value)) if (entry !== undefined) out[key] = entry;
  return out as T;
}
