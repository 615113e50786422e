import {
  forbiddenAddressReason,
  isForbiddenAddress,
  isLinkLocalAddress,
  isLoopbackAddress,
} from './address-policy';

describe('isForbiddenAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.10', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'benchmarking'],
    ['192.0.2.1', 'documentation'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:169.254.169.254', 'IPv4-mapped'],
    ['::ffff:10.0.0.1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['64:ff9b::10.0.0.1', 'private address (embedded'],
    ['64:ff9b::a9fe:a9fe', 'link-local address (cloud metadata) (embedded'],
    ['2002:c0a8:0101::1', 'private address (embedded'],
    ['not-an-ip', 'not an IP'],
    ['0x7f000001', 'not an IP'],
  ])('%s is forbidden (%s)', (ip, reason) => {
    expect(isForbiddenAddress(ip)).toBe(true);
    expect(forbiddenAddressReason(ip)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82b::200e',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
  ])('%s is a public address', (ip) => expect(isForbiddenAddress(ip)).toBe(false));
});

describe('isLoopbackAddress / isLinkLocalAddress', () => {
  it('knows loopback', () => {
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('127.1.2.3')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('::2')).toBe(false);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
    expect(isLoopbackAddress('localhost')).toBe(false);
  });

  it('knows link-local, also when mapped or translated', () => {
    expect(isLinkLocalAddress('169.254.169.254')).toBe(true);
    expect(isLinkLocalAddress('::ffff:169.254.169.254')).toBe(true);
    expect(isLinkLocalAddress('64:ff9b::a9fe:a9fe')).toBe(true);
    expect(isLinkLocalAddress('fe80::abcd')).toBe(true);
    expect(isLinkLocalAddress('127.0.0.1')).toBe(false);
  });
});
