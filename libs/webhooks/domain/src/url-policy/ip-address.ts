// Strict textual IP parsing for the SSRF policy. Anything that is not a plain dotted quad or a valid
// IPv6 literal is "not an IP": callers treat that as a hostname (URL check) or forbid it (connect check).

export interface IpAddress {
  family: 4 | 6;
  bytes: number[]; // 4 or 16 octets, network order
}

const DEC_OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

export function parseIpv4(text: string): IpAddress | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => DEC_OCTET.test(p))) return null;
  return { family: 4, bytes: parts.map(Number) };
}

function hexGroups(text: string): number[] | null {
  if (text === '') return [];
  const out: number[] = [];
  for (const g of text.split(':')) {
    if (!HEX_GROUP.test(g)) return null;
    out.push(parseInt(g, 16));
  }
  return out;
}

export function parseIpv6(input: string): IpAddress | null {
  let text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone); // a zone id only scopes a link-local address
  if (!text.includes(':')) return null;

  // An embedded dotted quad (::ffff:1.2.3.4) may only form the last 32 bits: rewrite it as two groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    const v4 = parseIpv4(last);
    if (!v4) return null;
    const [a, b, c, d] = v4.bytes;
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }

  const halves = text.split('::');
  if (halves.length > 2) return null;
  let words: number[];
  if (halves.length === 2) {
    const head = hexGroups(halves[0]);
    const tail = hexGroups(halves[1]);
    if (!head || !tail) return null;
    const missing = 8 - head.length - tail.length;
    if (missing < 1) return null;
    words = [...head, ...new Array<number>(missing).fill(0), ...tail];
  } else {
    const all = hexGroups(text);
    if (!all || all.length !== 8) return null;
    words = all;
  }
  return { family: 6, bytes: words.flatMap((w) => [w >> 8, w & 0xff]) };
}

export function parseIp(text: string): IpAddress | null {
  return parseIpv4(text) ?? parseIpv6(text);
}
