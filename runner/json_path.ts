/**
 * @module
 * The JSON paths captures, checks and ws matches read; one reader for validation and workers.
 */

export type PathStep = string | number;

/** `$.a.b[0]["c d"]` -> ["a", "b", 0, "c d"], or what is wrong with `path` and how to write it. */
export function readJsonPath(path: string): PathStep[] | { problem: string } {
  if (!path.startsWith("$")) return { problem: `${path}: a JSON path starts with "$", e.g. "$.token"` };
  const steps: PathStep[] = [];
  const token = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[\s*"([^"]*)"\s*\]|\[\s*'([^']*)'\s*\]/y;
  token.lastIndex = 1;
  while (token.lastIndex < path.length) {
    const at = token.lastIndex;
    const m = token.exec(path);
    if (m === null) {
      return {
        problem: `${path}: not a JSON path loadlab reads at "${path.slice(at, at + 40)}": ` +
          `use members and indexes only, e.g. $.a.b[0].c or $["a b"]`,
      };
    }
    steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3] ?? m[4]));
  }
  return steps;
}

/** `readJsonPath` for a path validation passed already; throws on anything else. */
export function parseJsonPath(path: string): PathStep[] {
  const read = readJsonPath(path);
  if (!Array.isArray(read)) throw new Error(read.problem);
  return read;
}
