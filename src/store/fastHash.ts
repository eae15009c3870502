/**
 * Hashes and unique tokens for file names, cache keys and lock nonces,
 * without `node:crypto`.
 *
 * Why: loading `node:crypto` costs ~7 ms here (Node 20, measured with a
 * dynamic import), and the prompt and start hooks, whose whole budget over a
 * bare `node -e 0` is a few tens of milliseconds, only need names that do
 * not collide, not secrecy. The hash is two independent 32-bit
 * multiply-xorshift lanes (64 bits): collisions among the few thousand ids a
 * data directory holds are negligible. A value derived from a secret (an API
 * key in a cache key) keeps 64 bits of an arbitrarily long input, which
 * reveals nothing usable about the key. Content hashes that must resist
 * tampering (the pending queue's dedupe keys) keep sha256; they run in the
 * background worker.
 *
 * @module
 */

/** 16 lower-case hex digits of a 64-bit non-cryptographic hash of `text`. */
export function hash64Hex(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

let counter = 0;

/**
 * A token unique within this machine for practical purposes: the time, a
 * per-process counter and random bits. Callers that need a guarantee also
 * use exclusive creation (`wx`, `mkdir`) and add the pid.
 */
export function uniqueToken(): string {
  counter = (counter + 1) % 0x100000;
  return `${Date.now().toString(36)}${counter.toString(36).padStart(4, '0')}${Math.floor(Math.random() * 0x100000000).toString(36)}`;
}
