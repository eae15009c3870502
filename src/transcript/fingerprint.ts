/**
 * Tiny non-cryptographic hashes for identity checks that must not store
 * content: the reader's "is this still the line I stopped after" check,
 * keys for records that carry no id (32-bit FNV-1a), and the compact
 * fingerprints capture keeps of every record it acknowledged (48 bits).
 * Not for anything adversarial.
 *
 * @module
 */
import { hash64Hex } from '../store/fastHash.js';

/** Characters of one `recordFingerprint`. */
export const RECORD_FINGERPRINT_CHARS = 8;

/**
 * 48 bits of a hash of a decoded message's record id (its first record's id
 * and timestamp, or its content for records without an id), as 8 base64url
 * characters: what capture remembers of each acknowledged message, so a
 * transcript cut back, rewritten or replaced never re-sends it. With 20,000
 * kept, a new message is mistaken for an old one with odds ~1e-10.
 */
export function recordFingerprint(recordId: string): string {
  return Buffer.from(hash64Hex(recordId).slice(0, 12), 'hex').toString('base64url');
}

/** FNV-1a over UTF-16 code units, as 8 hex digits. */
export function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
