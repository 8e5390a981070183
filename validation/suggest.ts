/**
 * @module
 * "Did you mean": the allowed name nearest by edit distance (a swap counts as one), if close.
 */

/** Optimal-string-alignment distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[s.length][t.length];
}

/** `no target named "x"; did you mean "y"?`, else the names there are. */
export function noSuchName(what: string, name: string, names: readonly string[]): string {
  const guess = nearest(name, names);
  return `no ${what} named "${name}"; ` +
    (guess ? `did you mean "${guess}"?` : `the ${what}s are ${names.join(", ")}`);
}

/** Nearest within 1 edit for names up to 4 letters, 2 up to 8, 3 beyond; ties go to the earlier. */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  const limit = typed.length <= 4 ? 1 : typed.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const distance = editDistance(typed, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
