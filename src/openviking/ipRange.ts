/**
 * IP literals and CIDR ranges for NO_PROXY entries (`10.0.0.0/8`,
 * `fd00::/8`), as curl reads them: a target written as an address inside a
 * listed range goes direct; a host name never matches a range (nothing is
 * resolved to decide where to send a request).
 *
 * Hand-parsed rather than `node:net`'s `BlockList`: the proxy rules are
 * pure and synchronous and sit in the hook entry, which takes `net` only
 * when it connects; and one `BlockList` matches across families
 * (`::ffff:10.1.2.3` inside `10.0.0.0/8`, `10.1.2.3` inside `::/0`), which
 * curl does not, so it would take a list per family and a lazy builtin
 * lookup, about as much code as this. Only runs when a proxy variable is set.
 *
 * @module
 */

/** An address as bytes: 4 for IPv4, 16 for IPv6. The two families never match each other. */
export type IpBytes = readonly number[];

export interface IpRange {
  bytes: IpBytes;
  /** Leading bits that must match. */
  prefix: number;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

function ipv4Bytes(text: string): number[] | undefined {
  const match = IPV4.exec(text);
  if (match === null) return undefined;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes : undefined;
}

/** The 16-bit groups of one side of `::` (an IPv4 tail counts as two), or undefined. */
function ipv6Groups(side: string, allowIpv4Tail: boolean): number[] | undefined {
  if (side === '') return [];
  const parts = side.split(':');
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (allowIpv4Tail && index === parts.length - 1 && part.includes('.')) {
      const v4 = ipv4Bytes(part);
      if (v4 === undefined) return undefined;
      groups.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    } else if (HEX_GROUP.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return undefined;
    }
  }
  return groups;
}

function ipv6Bytes(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = ipv6Groups(halves[0] ?? '', halves.length === 1);
  const tail = halves.length === 2 ? ipv6Groups(halves[1] ?? '', true) : [];
  if (head === undefined || tail === undefined) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

/** The bytes of an IPv4 or IPv6 literal (IPv6 without brackets), or undefined for anything else. */
export function ipBytes(text: string): IpBytes | undefined {
  return text.includes(':') ? ipv6Bytes(text) : ipv4Bytes(text);
}

/** `address/prefix` (or a bare address: all its bits), or undefined when `text` is not one. */
export function parseIpRange(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const bytes = ipBytes(slash === -1 ? text : text.slice(0, slash));
  if (bytes === undefined) return undefined;
  const bits = bytes.length * 8;
  if (slash === -1) return { bytes, prefix: bits };
  const prefixText = text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return undefined;
  return { bytes, prefix: Number(prefixText) };
}

/** Whether `address` lies inside `range` (same family, first `prefix` bits equal). */
export function ipInRange(address: IpBytes, range: IpRange): boolean {
  if (address.length !== range.bytes.length) return false;
  for (let bit = 0; bit < range.prefix; bit += 8) {
    const index = bit / 8;
    const mask = range.prefix - bit >= 8 ? 0xff : (0xff << (8 - (range.prefix - bit))) & 0xff;
    if (((address[index] ?? 0) & mask) !== ((range.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}
