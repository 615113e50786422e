import { QrMatrix } from './qr-code';

// An SVG of the matrix with the 4-module quiet zone the standard asks for: one path of unit squares
// (crisp at any size, a few kilobytes), black on white.
export function qrToSvg(qr: QrMatrix, opts: { moduleSize?: number; title?: string } = {}): string {
  const quiet = 4;
  const units = qr.size + quiet * 2;
  const pixels = units * (opts.moduleSize ?? 4);
  const path: string[] = [];
  qr.dark.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) path.push(`M${x + quiet} ${y + quiet}h1v1h-1z`);
    }),
  );
  const title = opts.title ? `<title>${escapeXml(opts.title)}</title>` : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${units} ${units}" width="${pixels}" height="${pixels}" shape-rendering="crispEdges">` +
    `${title}<rect width="${units}" height="${units}" fill="#fff"/><path fill="#000" d="${path.join('')}"/></svg>`
  );
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
