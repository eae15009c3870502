/**
 * The text that stands where a secret was: `[REDACTED:<kind>]`. One owner,
 * because three places read it: the redactor writes it (secrets.ts, and the
 * name rule through it), the name rule takes a value that already is one
 * for a placeholder (so redacting twice changes nothing), and a search
 * query leaves it out (privacy.ts: a query would only search for it).
 *
 * @module
 */

const OPENING = '[REDACTED:';

/** The marker that replaces a secret of `kind` (a rule's name: lower case, digits, `-`). */
export function redactionMarker(kind: string): string {
  return `${OPENING}${kind}]`;
}

/** A marker with the blanks around it. */
const MARKER_IN_TEXT = /[ \t]*\[REDACTED:[a-z0-9-]+\][ \t]*/g;

/** `text` with every marker (and the blanks around it) made one space. */
export function withoutMarkers(text: string): string {
  return text.includes(OPENING) ? text.replace(MARKER_IN_TEXT, ' ') : text;
}

/** A value that begins as a marker (`[REDACTED`, in any case): it was redacted already. */
export function isRedacted(value: string): boolean {
  return /^\[REDACTED/i.test(value);
}
