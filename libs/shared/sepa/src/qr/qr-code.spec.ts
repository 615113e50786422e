import { createHash } from 'node:crypto';

import { encodeQr } from './qr-code';
import { qrToSvg } from './qr-svg';

const picture = (dark: boolean[][]): string[] => dark.map((row) => row.map((d) => (d ? '#' : '.')).join(''));

// The reference matrix comes from another widely used encoder (python-qrcode 8.2, byte mode, level M),
// so this checks the standard and how we call the library, not the library against itself.
describe('encodeQr', () => {
  it('draws an EPC payload exactly as the reference encoder does (version 6-M, two blocks, mask 3)', () => {
    const epc =
      'BCD\n002\n1\nSCT\nCOBADEFFXXX\nOnramp Sandbox Collections\nDE89370400440532013000\nEUR100.00\n\nRF18539007547034';
    const qr = encodeQr(epc);
    expect(qr.version).toBe(6);
    expect(createHash('sha256').update(picture(qr.dark).join('\n')).digest('hex')).toBe(
      '1359615d96379ef7accfa04004adccf106d464a7ed888b112e32e0b966cf643e',
    );
  });

  it('picks the smallest version, up to 13-M for the 331 bytes an EPC payload may have', () => {
    expect(encodeQr('x'.repeat(14)).version).toBe(1);
    expect(encodeQr('x'.repeat(15)).version).toBe(2);
    const largest = encodeQr('A'.repeat(331));
    expect(largest.version).toBe(13);
    expect(largest.size).toBe(69);
    expect(() => encodeQr('A'.repeat(332))).toThrow('exceeds version 13');
  });

  it('encodes text as UTF-8 bytes (a name with diacritics takes two bytes per accented letter)', () => {
    expect(encodeQr('x'.repeat(12) + 'ë').version).toBe(1); // 14 bytes fit version 1-M
    expect(encodeQr('x'.repeat(13) + 'ë').version).toBe(2); // 15 do not
  });

  it('renders an SVG with a quiet zone and an escaped title', () => {
    const svg = qrToSvg(encodeQr('hello'), { moduleSize: 5, title: 'Pay <Zoë> & co' });
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 29 29" width="145" height="145"/,
    );
    expect(svg).toContain('<title>Pay &#60;Zoë&#62; &#38; co</title>');
    expect(svg).toContain('M4 4h1v1h-1z'); // the top-left finder starts after 4 light modules
  });
});
