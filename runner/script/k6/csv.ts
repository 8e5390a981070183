/**
 * @module
 * k6's `k6/experimental/csv`: `parse` reads a `k6/experimental/fs` file into read-only rows (arrays, or
 * objects keyed by its first line with `asObjects`); a `Parser` hands each VU the rows one a `next()`. As
 * k6's, a `Parser`, `asObjects` and `skipFirstLine` read from the file's offset to its end (none left: no
 * rows, or k6's EOF error); a plain `parse` moves nothing.
 */
// deno-lint-ignore-file require-await -- k6's calls answer promises; a throw in them is a rejection
import { File } from "./fs.ts";
import { parse as parseText } from "./jslib/papaparse.ts";
import { current } from "./runtime.ts";

interface Options {
  delimiter?: string;
  asObjects?: boolean;
  skipFirstLine?: boolean;
  fromLine?: number;
  toLine?: number;
}

/** The file's rows as `options` pick them: lines `fromLine` to `toLine`, the header line never a row. */
function rowsOf(file: File, options: Options = {}, parser = false): unknown[] {
  const firstLine = options.asObjects || options.skipFirstLine;
  const text = new TextDecoder().decode(File.rest(file, !parser && !firstLine));
  const lines = parseText(text, { delimiter: options.delimiter, skipEmptyLines: true }).data as string[][];
  if (lines.length === 0 && firstLine && !parser) {
    throw new Error("failed to create a new parser; reason: failed to read the first line; reason: EOF");
  }
  // Keyed in k6's order (its rows are Go maps): by name.
  const header = (lines[0] ?? []).map((name, k) => [name, k] as const).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0
  );
  const first = Math.max(options.fromLine ?? 0, firstLine ? 1 : 0);
  const picked = lines.slice(first, options.toLine === undefined ? undefined : options.toLine + 1);
  if (!options.asObjects) return picked;
  return picked.map((fields) => Object.fromEntries(header.map(([name, k]) => [name, fields[k] ?? ""])));
}

/** Every row at once, frozen as k6's SharedArray. */
export async function parse(file: File, options?: Options): Promise<readonly unknown[]> {
  return Object.freeze(rowsOf(file, options).map((row) => Object.freeze(row)));
}

/** The rows one at a time: `{ done, value }`, from a position of each VU's own. */
export class Parser {
  readonly #rows: unknown[];
  readonly #positions = new WeakMap<object, number>();

  constructor(file: File, options?: Options) {
    this.#rows = rowsOf(file, options, true);
  }

  async next(): Promise<{ done: boolean; value: unknown }> {
    const reader = current()?.vu ?? this, at = this.#positions.get(reader) ?? 0;
    this.#positions.set(reader, at + 1);
    return at < this.#rows.length ? { done: false, value: this.#rows[at] } : { done: true, value: [] };
  }
}

export default { parse, Parser };
