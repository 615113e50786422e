// The four penalty rules of ISO/IEC 18004 (8.8.2), used to pick the mask that scans best: long runs
// of one colour, 2x2 blocks, finder-like 1:1:3:1:1 patterns and an unbalanced dark share.
export function penalty(dark: boolean[][]): number {
  const size = dark.length;
  const at = (x: number, y: number): boolean => dark[y]![x]!;
  let score = 0;
  const lines: boolean[][] = [];
  for (let i = 0; i < size; i++) {
    lines.push(dark[i]!);
    lines.push(dark.map((row) => row[i]!));
  }
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) run++;
      else {
        if (run >= 5) score += 3 + (run - 5);
        run = 1;
      }
    }
    // 1011101 with four light modules on either side (outside the symbol counts as light)
    const light = (i: number): boolean => i < 0 || i >= size || !line[i];
    for (let i = 0; i + 7 <= size; i++) {
      const core = [true, false, true, true, true, false, true].every((d, k) => line[i + k] === d);
      if (!core) continue;
      const before = [1, 2, 3, 4].every((k) => light(i - k));
      const after = [7, 8, 9, 10].every((k) => light(i + k));
      if (before || after) score += 40;
    }
  }
  for (let y = 0; y + 1 < size; y++) {
    for (let x = 0; x + 1 < size; x++) {
      const c = at(x, y);
      if (c === at(x + 1, y) && c === at(x, y + 1) && c === at(x + 1, y + 1)) score += 3;
    }
  }
  const total = size * size;
  const darkCount = dark.reduce((n, row) => n + row.filter(Boolean).length, 0);
  score += Math.floor(Math.abs(darkCount * 20 - total * 10) / total) * 10;
  return score;
}
