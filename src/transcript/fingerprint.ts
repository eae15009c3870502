/**
 * A tiny non-cryptographic hash (32-bit FNV-1a) for identity checks that must
 * not store content: the reader's "is this still the line I stopped after"
 * check and keys for records that carry no id. Not for anything adversarial.
 *
 * @module
 */

/** FNV-1a over UTF-16 code units, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
