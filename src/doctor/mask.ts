/**
 * How the doctor shows a secret: enough to tell two keys apart, never
 * enough to use one. `sk-live-1234abcd` → `****abcd`.
 *
 * @module
 */

/** Characters of a secret's end that stay visible. */
const VISIBLE_TAIL = 4;
/** Secrets shorter than this show no character at all. */
const MIN_LENGTH_FOR_TAIL = 12;

export function maskSecret(secret: string): string {
  const value = secret.trim();
  return value.length < MIN_LENGTH_FOR_TAIL ? '****' : `****${value.slice(-VISIBLE_TAIL)}`;
}

/** `text` with every occurrence of `secret` masked (messages that may echo a key). */
export function maskIn(text: string, secret: string | undefined): string {
  const value = secret?.trim();
  return value ? text.split(value).join(maskSecret(value)) : text;
}
