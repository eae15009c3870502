/**
 * Hand-checked narrowing of untyped JSON. The transcript is written by another
 * program and may hold anything; these helpers are the only place that
 * inspects raw values, so the decoders read as plain field access.
 *
 * @module
 */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field when it is a string, else undefined. */
export function stringField(record: JsonObject, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' ? value : undefined;
}

/** The field when it is a plain object, else undefined. */
export function objectField(record: JsonObject, key: string): JsonObject | undefined {
  const value = record[key];
  return isObject(value) ? value : undefined;
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
