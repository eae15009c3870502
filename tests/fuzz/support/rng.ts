/**
 * A small seeded generator (mulberry32) and the helpers the fuzzers draw
 * from, so every run is reproducible from the seed it prints.
 *
 * The seed is `FUZZ_SEED` when set, else the UTC day (YYYYMMDD): a failing
 * run can be replayed exactly (`FUZZ_SEED=<printed seed> npx vitest run
 * tests/fuzz`), and the inputs still change from one day to the next.
 *
 * @module
 */

export interface Rng {
  readonly seed: number;
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** A child generator for one case, so cases do not shift when one draws more. */
  fork(caseIndex: number): Rng;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng: Rng = {
    seed,
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    fork: (caseIndex) => createRng((Math.imul(seed ^ 0x9e3779b9, 31) + Math.imul(caseIndex + 1, 0x85ebca6b)) >>> 0),
  };
  return rng;
}

/** `FUZZ_SEED` (decimal) when set, else today's UTC date as YYYYMMDD. */
export function fuzzSeed(env: Readonly<Record<string, string | undefined>>, now: Date): number {
  const fromEnv = Number(env.FUZZ_SEED);
  if (env.FUZZ_SEED !== undefined && env.FUZZ_SEED !== '' && Number.isSafeInteger(fromEnv)) return fromEnv >>> 0;
  return now.getUTCFullYear() * 10_000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-./:';
const ODD_STRINGS = [
  '',
  ' ',
  'viking://',
  'VIKING:/user/x',
  'viking:user',
  '<private>secret</private>',
  '</openviking-memory>',
  '\u0000',
  '\ud800',
  '\uffff',
  '𝕍𝕀𝕂𝕀ℕ𝔾',
  '中文记忆',
  '../../../../etc/passwd',
  '${HOME}',
  '$(id)',
  '`id`',
  '%s%n',
  '__proto__',
  'constructor',
  'null',
  '{"a":1}',
  '\r\n',
  'A'.repeat(300),
];

/** A short random string, sometimes one of the known-odd ones. */
export function randomString(rng: Rng, maxLength = 40): string {
  if (rng.chance(0.3)) return rng.pick(ODD_STRINGS);
  let text = '';
  const length = rng.int(0, maxLength);
  for (let i = 0; i < length; i++) {
    text += rng.chance(0.05) ? String.fromCharCode(rng.int(0, 0xffff)) : ALPHABET[rng.int(0, ALPHABET.length - 1)];
  }
  return text;
}

/** Any JSON-ish value, nested at most `depth` levels. */
export function randomValue(rng: Rng, depth = 3): unknown {
  const kind = rng.int(0, depth > 0 ? 8 : 5);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, -0, Number.MAX_SAFE_INTEGER, 42]);
    case 3:
    case 4:
      return randomString(rng);
    case 5:
      return rng.pick([[], {}, '', 0]);
    case 6:
    case 7: {
      const object: Record<string, unknown> = {};
      for (let i = rng.int(0, 4); i > 0; i--) object[randomString(rng, 12)] = randomValue(rng, depth - 1);
      return object;
    }
    default:
      return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth - 1));
  }
}

/** `[[[[…]]]]` or `{"a":{"a":…}}` nested `levels` deep, as JSON text (JSON.stringify would recurse). */
export function deepJson(levels: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(levels)}${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}
