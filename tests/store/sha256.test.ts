/**
 * The plain-JavaScript SHA-256 (src/store/sha256.ts, kept off `node:crypto`
 * by DESIGN D13) pinned to `node:crypto` byte for byte. Peer ids, block
 * marks and trust digests depend on it matching OpenViking's own hash, so
 * the inputs are the ones a hand-written SHA-256 gets wrong: every length
 * around the 55/56/64-byte padding boundaries (one block or two, the length
 * field alone in a block), several blocks, and multi-byte UTF-8 (the hash is
 * of the bytes, not the UTF-16 units), including characters that straddle a
 * block edge.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/store/sha256.js';

const reference = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every length from 0 to 3 blocks and a byte, so each padding case is met. */
const LENGTHS = Array.from({ length: 3 * 64 + 2 }, (_, length) => length);

describe('sha256Hex equals node:crypto', () => {
  it('the empty string and FIPS 180-4 "abc" (known answers)', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    ['ASCII', 'a'],
    ['a 2-byte character (é)', 'é'],
    ['a 3-byte character (中)', '中'],
    ['a 4-byte character (a surrogate pair, 🙂)', '🙂'],
  ])('%s repeated to every length from 0 to 3 blocks', (_label, unit) => {
    for (const count of LENGTHS) {
      const text = unit.repeat(count);
      expect(sha256Hex(text), `${count} × ${JSON.stringify(unit)}`).toBe(reference(text));
    }
  });

  it('a multi-byte character straddling each block boundary', () => {
    for (const pad of [53, 54, 55, 56, 62, 63, 64, 117, 118, 119, 120, 126, 127]) {
      const text = `${'x'.repeat(pad)}🙂中é${'y'.repeat(pad % 7)}`;
      expect(sha256Hex(text), `pad ${pad}`).toBe(reference(text));
    }
  });

  it('long inputs: a peer id past the 100-character cut, and 100 KB of mixed text', () => {
    const peer = `github.com-${'very-long-organisation-name/'.repeat(8)}repo-ünïcødé-名前`;
    expect(sha256Hex(peer)).toBe(reference(peer));
    const mixed = 'line of text, ünïcødé, 中文, 🙂\n'.repeat(3_500);
    expect(sha256Hex(mixed)).toBe(reference(mixed));
  });

  it('a lone surrogate hashes as its UTF-8 replacement, as node does', () => {
    const broken = `a\ud800b${'z'.repeat(60)}\udc00`;
    expect(sha256Hex(broken)).toBe(reference(broken));
  });
});
