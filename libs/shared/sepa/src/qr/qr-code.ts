import qrcode from 'qrcode-generator';

export interface QrMatrix {
  version: number;
  size: number;
  dark: boolean[][]; // [y][x], without the quiet zone
}

// EPC069-12 caps the GiroCode at version 13 (69 x 69 modules), which holds its largest payload
// (331 bytes) at level M.
const MAX_VERSION = 13;

// A QR code of UTF-8 bytes in byte mode, error correction level M (what EPC069-12 asks for), the
// smallest version that holds them, by qrcode-generator (a maintained, dependency-free encoder). Its
// own string conversion keeps only the low byte of each character, so the text goes in as its UTF-8
// bytes, one character per byte: "Zoë" is encoded as the four bytes a payer's banking app decodes.
export function encodeQr(text: string): QrMatrix {
  const qr = qrcode(0, 'M');
  qr.addData(Buffer.from(text, 'utf8').toString('latin1'), 'Byte');
  qr.make();
  const size = qr.getModuleCount();
  const version = (size - 17) / 4;
  if (version > MAX_VERSION) {
    throw new Error(`QR payload of ${Buffer.byteLength(text)} bytes exceeds version ${MAX_VERSION}-M`);
  }
  const dark = Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => qr.isDark(y, x)));
  return { version, size, dark };
}
