import { parseIp, parseIpv4, parseIpv6 } from './ip-address';

describe('parseIpv4', () => {
  it('reads dotted quads', () => {
    expect(parseIpv4('192.168.1.20')?.bytes).toEqual([192, 168, 1, 20]);
    expect(parseIpv4('0.0.0.0')?.bytes).toEqual([0, 0, 0, 0]);
  });

  it.each(['256.0.0.1', '1.2.3', '01.2.3.4', '0x7f.0.0.1', '2130706433', '1.2.3.4.5', '', 'a.b.c.d'])(
    'refuses the ambiguous form %s',
    (s) => expect(parseIpv4(s)).toBeNull(),
  );
});

describe('parseIpv6', () => {
  const words = (s: string) => {
    const b = parseIpv6(s)?.bytes;
    return b
      ? Array.from({ length: 8 }, (_, i) => ((b[2 * i] << 8) | b[2 * i + 1]).toString(16)).join(':')
      : null;
  };

  it('expands compressed forms', () => {
    expect(words('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(words('::')).toBe('0:0:0:0:0:0:0:0');
    expect(words('fe80::1%eth0')).toBe('fe80:0:0:0:0:0:0:1');
    expect(words('[2001:db8::8:800:200c:417a]')).toBe('2001:db8:0:0:8:800:200c:417a');
    expect(words('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
  });

  it('reads an embedded dotted quad', () => {
    expect(words('::ffff:127.0.0.1')).toBe('0:0:0:0:0:ffff:7f00:1');
    expect(words('::ffff:7f00:1')).toBe('0:0:0:0:0:ffff:7f00:1');
    expect(words('64:ff9b::10.0.0.1')).toBe('64:ff9b:0:0:0:0:a00:1');
  });

  it.each([
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '12345::',
    '::ffff:1.2.3.256',
    'g::1',
    '1:2:3:4:5:6:7::8',
    'localhost',
  ])('refuses %s', (s) => expect(parseIpv6(s)).toBeNull());
});

describe('parseIp', () => {
  it('knows both families', () => {
    expect(parseIp('10.0.0.1')?.family).toBe(4);
    expect(parseIp('::1')?.family).toBe(6);
    expect(parseIp('example.com')).toBeNull();
  });
});
