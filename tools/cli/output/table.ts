export type Cell = string | number | null | undefined;

const text = (cell: Cell): string =>
  cell === null || cell === undefined || cell === '' ? '-' : String(cell);

// A plain left-aligned table: header row, then one row per item, columns two spaces apart.
export function renderTable(headers: string[], rows: Cell[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(text))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

// "label  value" lines with the labels aligned, for one record.
export function renderFields(fields: [string, Cell][]): string {
  const width = Math.max(...fields.map(([label]) => label.length));
  return fields.map(([label, value]) => `${label.padEnd(width)}  ${text(value)}`.trimEnd()).join('\n') + '\n';
}

// "3 of 120 (offset 0)" under a page of a list; the total comes from X-Total-Count.
export function pageFooter(shown: number, total: number | undefined, offset: number): string {
  if (total === undefined) return `${shown} shown\n`;
  if (shown === 0) return total === 0 ? '' : `none at offset ${offset} of ${total}\n`;
  return `${offset + 1}-${offset + shown} of ${total}${offset + shown < total ? ' (more with --offset)' : ''}\n`;
}
