/**
 * Hand-checked narrowing of untyped JSON fields, for the transcript
 * decoders. The transcript is written by another program and may hold
 * anything; these helpers (with util/json.ts `isRecord`) are the only place
 * that inspects raw values, so the decoders read as plain field access.
 *
 * @module
 */
import { isRecord } from '../util/json.js';
import type { JsonRecord } from '../util/json.js';

/** The field when it is a string, else undefined. */
export function stringField(record: JsonRecord, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The field when it is a plain object, else undefined. */
export function objectField(record: JsonRecord, key: string): JsonRecord | undefined {
  const value = record[key];
  return isRecord(value) ? value : undefined;
}

/** Epoch milliseconds or an ISO string → ISO string; anything else → undefined. */
export function isoTimestamp(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))) return value;
  return undefined;
}
