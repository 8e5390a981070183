/**
 * @module
 * Target names that differ only in case (`App`, `app`): each names a folder on disk (`logs/<target>`).
 */

/** One problem at the path of the later name. */
interface FoldIssue {
  path: (string | number)[];
  message: string;
}

/** Each target name that equals an earlier one once both are lower-cased. */
export function caseFoldIssues(names: readonly string[]): FoldIssue[] {
  const first = new Map<string, string>();
  const issues: FoldIssue[] = [];
  for (const name of names) {
    const folded = name.toLowerCase();
    const earlier = first.get(folded);
    if (earlier === undefined) {
      first.set(folded, name);
      continue;
    }
    issues.push({
      path: ["targets", name],
      message: `"${name}" and "${earlier}" differ only in case; each names its log folder (logs/<target>), ` +
        `one folder on a filesystem that ignores case (macOS, Windows): rename one, e.g. "${name}-2"`,
    });
  }
  return issues;
}
