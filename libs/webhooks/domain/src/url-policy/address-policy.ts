import { IpAddress, parseIp, parseIpv4, parseIpv6 } from './ip-address';

interface Range {
  base: IpAddress;
  prefix: number;
  reason: string;
}

function range(text: string, prefix: number, reason: string): Range {
  const base = parseIp(text);
  if (!base) throw new Error(`bad range ${text}`);
  return { base, prefix, reason };
}

// Destinations a webhook must never reach outside sandbox: anything that is not a public unicast
// address (RFC 6890 special-purpose registries), including the cloud metadata address 169.254.169.254.
const FORBIDDEN_V4: Range[] = [
  range('0.0.0.0', 8, 'unspecified ("this network") address'),
  range('10.0.0.0', 8, 'private address'),
  range('100.64.0.0', 10, 'carrier-grade NAT address'),
  range('127.0.0.0', 8, 'loopback address'),
  range('169.254.0.0', 16, 'link-local address (cloud metadata)'),
  range('172.16.0.0', 12, 'private address'),
  range('192.0.0.0', 24, 'IETF protocol assignment'),
  range('192.0.2.0', 24, 'documentation address'),
  range('192.168.0.0', 16, 'private address'),
  range('198.18.0.0', 15, 'benchmarking address'),
  range('198.51.100.0', 24, 'documentation address'),
  range('203.0.113.0', 24, 'documentation address'),
  range('224.0.0.0', 4, 'multicast address'),
  range('240.0.0.0', 4, 'reserved address'),
];

const FORBIDDEN_V6: Range[] = [
  range('::', 128, 'unspecified address'),
  range('::1', 128, 'loopback address'),
  // docs/api.md, Webhooks forbids IPv4-mapped addresses outright, whatever IPv4 address they carry.
  range('::ffff:0:0', 96, 'IPv4-mapped address'),
  range('::', 96, 'IPv4-compatible address'),
  range('64:ff9b:1::', 48, 'local-use NAT64 address'),
  range('100::', 64, 'discard-only address'),
  range('2001::', 32, 'Teredo address'),
  range('2001:db8::', 32, 'documentation address'),
  range('fc00::', 7, 'unique local (private) address'),
  range('fe80::', 10, 'link-local address'),
  range('fec0::', 10, 'site-local address'),
  range('ff00::', 8, 'multicast address'),
];

function inRange(addr: IpAddress, r: Range): boolean {
  if (addr.family !== r.base.family) return false;
  let bits = r.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((addr.bytes[i] & mask) !== (r.base.bytes[i] & mask)) return false;
  }
  return true;
}

const NAT64 = range('64:ff9b::', 96, 'NAT64');
const SIX_TO_FOUR = range('2002::', 16, '6to4');

// IPv6 forms that route to an IPv4 address (NAT64, 6to4): judged by the IPv4 address they carry.
function embeddedIpv4(addr: IpAddress): IpAddress | null {
  if (addr.family !== 6) return null;
  if (inRange(addr, NAT64)) return { family: 4, bytes: addr.bytes.slice(12) };
  if (inRange(addr, SIX_TO_FOUR)) return { family: 4, bytes: addr.bytes.slice(2, 6) };
  return null;
}

function classify(addr: IpAddress): string | null {
  const ranges = addr.family === 4 ? FORBIDDEN_V4 : FORBIDDEN_V6;
  const hit = ranges.find((r) => inRange(addr, r));
  if (hit) return hit.reason;
  const inner = embeddedIpv4(addr);
  if (inner) {
    const reason = classify(inner);
    if (reason) return `${reason} (embedded in IPv6)`;
  }
  return null;
}

// Why an address is not a public unicast destination, or null when it is. Unparsable text is forbidden.
export function forbiddenAddressReason(ip: string): string | null {
  const addr = parseIp(ip);
  if (!addr) return 'not an IP address';
  return classify(addr);
}

export function isForbiddenAddress(ip: string): boolean {
  return forbiddenAddressReason(ip) !== null;
}

export function isLoopbackAddress(ip: string): boolean {
  const v4 = parseIpv4(ip);
  if (v4) return v4.bytes[0] === 127;
  const v6 = parseIpv6(ip);
  return v6 !== null && v6.bytes.slice(0, 15).every((b) => b === 0) && v6.bytes[15] === 1;
}

const LINK_LOCAL = [
  range('169.254.0.0', 16, ''),
  range('fe80::', 10, ''),
  range('::ffff:169.254.0.0', 112, ''),
];

// Never a webhook target, even in sandbox: the cloud metadata service lives here.
export function isLinkLocalAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  const inner = embeddedIpv4(addr);
  return LINK_LOCAL.some((r) => inRange(addr, r) || (inner !== null && inRange(inner, r)));
}
