/**
 * Secret-shaped test values, made at run time from a fixed seed: no
 * secret-shaped literal sits in the repository (so GitHub push protection
 * and other scanners find none), and a run is replayable. A value is a
 * vendor prefix plus `random(alphabet, length)`; `mixed` is a value that
 * cannot pass for a word (upper case, lower case and a digit).
 *
 * @module
 */

export const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const DIGITS = '0123456789';
export const ALNUM = UPPER + LOWER + DIGITS;
export const HEX = '0123456789abcdef';
export const B64 = `${ALNUM}+/`;
export const URLSAFE = `${ALNUM}_-`;

export interface SecretParts {
  /** Deterministic pseudo-random characters of `alphabet`. */
  random(alphabet: string, length: number): string;
  /** A mixed-case value with a digit, `length` characters. */
  mixed(length: number): string;
}

/** A generator of parts; the same seed gives the same values in the same order. */
export function secretParts(seed: number): SecretParts {
  let state = seed;
  const random = (alphabet: string, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) {
      // A 32-bit LCG (Math.imul: a float product would lose the low bits), read from its high bits.
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      out += alphabet[(state >>> 16) % alphabet.length];
    }
    return out;
  };
  const mixed = (length: number): string =>
    `${random(UPPER, 1)}${random(LOWER, 1)}${random(DIGITS, 1)}${random(ALNUM, length - 3)}`;
  return { random, mixed };
}
