/**
 * The address and CIDR parser behind NO_PROXY ranges: every spelling of an
 * address gives the same bytes, and anything that is not an address is
 * refused (then the entry is compared as a host name).
 */
import { describe, expect, it } from 'vitest';
import { ipBytes, ipInRange, parseIpRange } from '../../src/openviking/ipRange.js';

describe('ipBytes', () => {
  it('reads IPv4 and every IPv6 spelling (::, leading zeros, an IPv4 tail, case)', () => {
    expect(ipBytes('10.1.2.3')).toEqual([10, 1, 2, 3]);
    const loopback = [...new Array<number>(15).fill(0), 1];
    expect(ipBytes('::1')).toEqual(loopback);
    expect(ipBytes('0:0:0:0:0:0:0:1')).toEqual(loopback);
    expect(ipBytes('0000:0000::0001')).toEqual(loopback);
    expect(ipBytes('::')).toEqual(new Array<number>(16).fill(0));
    expect(ipBytes('::ffff:10.1.2.3')).toEqual([...new Array<number>(10).fill(0), 0xff, 0xff, 10, 1, 2, 3]);
    expect(ipBytes('FD12::AB')).toEqual(ipBytes('fd12:0:0:0:0:0:0:ab'));
    expect(ipBytes('1:2:3:4:5:6:7::')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 0]);
  });

  it('refuses what is not an address', () => {
    for (const text of [
      '',
      'ov.example',
      '1.2.3',
      '1.2.3.4.5',
      '256.0.0.1',
      '1.2.3.04x',
      '1::2::3',
      '12345::',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7:8::',
      'fe80::1%eth0',
      ':1',
      '1.2.3.4::',
      'g::1',
    ]) {
      expect(ipBytes(text), text).toBeUndefined();
    }
  });
});

describe('parseIpRange and ipInRange', () => {
  it('a prefix counts bits, not bytes; a bare address is all its bits', () => {
    const range = parseIpRange('172.16.0.0/12');
    expect(range).toEqual({ bytes: [172, 16, 0, 0], prefix: 12 });
    if (range === undefined) return;
    expect(ipInRange([172, 31, 255, 255], range)).toBe(true);
    expect(ipInRange([172, 32, 0, 0], range)).toBe(false);
    expect(parseIpRange('10.0.0.1')?.prefix).toBe(32);
    expect(parseIpRange('::1')?.prefix).toBe(128);
  });

  it('refuses prefixes past the family width and malformed ones', () => {
    for (const text of [
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      '10.0.0.0/x',
      'ov.example/8',
    ]) {
      expect(parseIpRange(text), text).toBeUndefined();
    }
  });
});
