import { BlockList, isIP } from 'node:net';

// The connections allowed to tell us who the client is (X-Forwarded-For / -Proto / -Host): the
// ingress or load balancer ranges of GATEWAY_TRUSTED_PROXIES, nothing by default. Any other peer is
// the client itself, whatever headers it sends, so it cannot pick its own rate-limit bucket.
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  constructor(cidrs: readonly string[]) {
    for (const cidr of cidrs) {
      const [address, bits] = cidr.split('/');
      const family = isIP(address);
      if (family === 0) throw new Error(`"${cidr}" is not an IP address or CIDR range`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      const max = family === 4 ? 32 : 128;
      const prefix = bits === undefined ? max : Number(bits);
      if (!/^\d+$/.test(bits ?? String(max)) || prefix > max)
        throw new Error(`"${cidr}" has an invalid prefix length`);
      this.list.addSubnet(address, prefix, type);
    }
    this.empty = cidrs.length === 0;
  }

  static parse(value: string): TrustedProxies {
    return new TrustedProxies(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    );
  }

  // IPv4-mapped IPv6 peers (::ffff:10.0.0.1, dual-stack sockets) are checked as the IPv4 they are.
  has(address: string | undefined): boolean {
    if (!address || this.empty) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    const plain = mapped ? mapped[1] : address;
    const family = isIP(plain);
    if (family === 0) return false;
    return this.list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}
