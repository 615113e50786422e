// "did you mean": the closest known word to a mistyped one, if it is close enough to be a typo
// (Damerau-Levenshtein distance at most a third of its length, and at least one edit allowed).
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(input.length / 3));
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = editDistance(input.toLowerCase(), word.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

export function didYouMean(input: string, candidates: readonly string[]): string {
  const match = closest(input, candidates);
  return match ? `; did you mean "${match}"?` : '';
}

// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
