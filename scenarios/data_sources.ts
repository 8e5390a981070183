/**
 * @module
 * The `data:` sources of an experiment file (CSV, JSON, NDJSON), read once at plan time.
 */
import { z } from "zod";
import { readOrRefuse, readUtf8FileCapped } from "../system/read_capped.ts";
import { dataOrderSchema, VALUE_NAME, whenDoneSchema } from "../runner/session_schema.ts";
import { type PackedRows, packRows, shared } from "../runner/data_rows.ts";
import { isRecord, jsonErrorReason } from "../validation/json_document.ts";
import { grown } from "../system/large_arrays.ts";
import { fieldsOf, option } from "../runner/option.ts";
import { customIssue, repeatsOf } from "../validation/mod.ts";

/** Largest data file read: rows are held by every worker, so this is a memory bound too. */
const MAX_DATA_FILE_BYTES = 64 * 2 ** 20;

/** One `data:` entry's fields as the file writes them, and as `--data-*` flags set them. */
export const DATA_OPTIONS = {
  /** CSV (`.csv`), JSON array (`.json`) or NDJSON (`.ndjson`, `.jsonl`), relative to the experiment file. */
  file: option(
    { kind: "path", flag: "--data-file FILE", example: "users.csv" },
    z.string().min(1),
    "rows filling {{ name }} placeholders in the URL's path and query, -H",
    "values and -b (a gRPC message and its metadata too), one row per",
    "request: a CSV with a header row, a JSON array of objects or NDJSON",
    "(.ndjson, .jsonl), read as an experiment's data: source. A name no",
    "column has is refused; {{ $randomNumber(1,9) }} and",
    "{{ $randomString(8) }} need no file (docs/EXPERIMENTS.md)",
  ),
  order: option(
    { kind: "word", flag: "--data-order O", example: "random" },
    dataOrderSchema,
    "sequential, random, or unique (each row once across workers and",
    "segments)",
  ),
  whenDone: option(
    { kind: "word", flag: "--data-when-done W", example: "stop" },
    whenDoneSchema.unwrap().optional(),
    "when a worker's rows run out: wrap, or stop (unique's only one)",
  ),
  /** Artillery's payload `fields`: the column names, in order. */
  fields: option(
    { kind: "list", flag: "--data-fields A,B", example: "user,password" },
    z.array(z.string().min(1)).min(1).optional(),
    "a CSV without a header row: its column names",
  ),
  skipHeader: option(
    { flag: "--data-skip-header" },
    z.boolean().optional(),
    "with --data-fields: the first row is a header all the same; skip it",
  ),
};

/** One `data:` entry as the file writes it. */
export const dataSourceSchema = z.strictObject(fieldsOf(DATA_OPTIONS)).superRefine((d, ctx) => {
  if (d.skipHeader !== undefined && d.fields === undefined) {
    customIssue(ctx, ["skipHeader"], "skipHeader goes with fields (a CSV without a header)");
  }
  if (d.order === "unique" && d.whenDone === "wrap") {
    customIssue(
      ctx,
      ["whenDone"],
      "unique uses each row once, so it ends with stop; use order: sequential to wrap",
    );
  }
  if (d.order === "random" && d.whenDone !== undefined) {
    customIssue(ctx, ["whenDone"], "random picks never run out; drop whenDone");
  }
}).transform((d) => ({ ...d, whenDone: d.whenDone ?? (d.order === "unique" ? "stop" : "wrap") }))
  .meta({ id: "dataSource" });

/** A data file's columns and its rows, packed as the workers take them (runner/data_rows.ts). */
export interface DataTable {
  columns: string[];
  rows: PackedRows;
}

/** A data file that cannot be used; `line` is 1-based, 0 when the problem is the file as a whole. */
export class DataFileError extends Error {
  override name = "DataFileError";
  constructor(readonly file: string, readonly line: number, readonly reason: string, options?: ErrorOptions) {
    super(`${file}${line > 0 ? `:${line}` : ""}: ${reason}`, options);
  }
}

/** How a CSV without a header row names its columns (Artillery's payload). */
type CsvColumns = Pick<z.output<typeof dataSourceSchema>, "fields" | "skipHeader">;

/** Reads and parses the data file at `path` (its format from the extension). */
export function readDataFile(path: string, csv: CsvColumns = {}): DataTable {
  const bytes = readOrRefuse(
    () => readUtf8FileCapped(path, MAX_DATA_FILE_BYTES),
    (why, cause) =>
      new DataFileError(path, 0, `${why}; give a .csv, .json, .ndjson or .jsonl file of rows`, cause),
  );
  const lower = path.toLowerCase();
  if (csv.fields !== undefined && !lower.endsWith(".csv")) {
    throw new DataFileError(path, 0, "fields and skipHeader apply to CSV files");
  }
  const text = () => new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
  const table = lower.endsWith(".csv")
    ? parseCsv(bytes, path, csv)
    : lower.endsWith(".json")
    ? fromObjects(parseJsonArray(text(), path), path)
    : lower.endsWith(".ndjson") || lower.endsWith(".jsonl")
    ? fromObjects(parseNdjson(text(), path), path)
    : null;
  if (table === null) {
    throw new DataFileError(path, 0, "unknown format: name it .csv, .json, .ndjson or .jsonl");
  }
  if (table.rows.count === 0) throw new DataFileError(path, 0, "has no rows; give one row at least");
  checkColumns(table.columns, path, csv.fields === undefined ? "the header" : "fields");
  return table;
}

/** Every column a `{{ name }}`, and no two alike (the second would never be filled). */
function checkColumns(columns: string[], path: string, where: string): void {
  const line = where === "the header" ? 1 : 0;
  const bad = columns.find((c) => !VALUE_NAME.test(c));
  if (bad !== undefined) {
    throw new DataFileError(
      path,
      line,
      `column ${JSON.stringify(bad)} is not a name ({{ name }}: letters, digits, _ . -)`,
    );
  }
  const [repeat] = repeatsOf(columns, (name) => name);
  if (repeat === undefined) return;
  const [seen, k] = repeat;
  const name = JSON.stringify(columns[k]);
  throw new DataFileError(
    path,
    line,
    `column ${name} appears twice in ${where} (columns ${seen + 1} and ${k + 1}); rename one, e.g. ${
      JSON.stringify(`${columns[k]}_2`)
    }`,
  );
}

function parseCsv(bytes: Uint8Array, file: string, csv: CsvColumns): DataTable {
  const hasHeader = csv.fields === undefined || csv.skipHeader === true;
  const parsed = csvPacked(bytes, file, hasHeader, csv.fields?.length);
  const columns = csv.fields ?? parsed.header?.map((f) => f.trim());
  if (columns === undefined) {
    throw new DataFileError(file, 0, "is empty; give a header row, then one row a line");
  }
  return { columns, rows: parsed.rows };
}

function parseJsonArray(text: string, file: string): Array<{ line: number; value: unknown }> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DataFileError(file, 0, `is not JSON: ${jsonErrorReason(err)}`, { cause: err });
  }
  if (!Array.isArray(value)) {
    throw new DataFileError(
      file,
      0,
      "is not an array of objects: give a JSON array of rows, one object each",
    );
  }
  return value.map((v, k) => ({ line: k + 1, value: v }));
}

function parseNdjson(text: string, file: string): Array<{ line: number; value: unknown }> {
  const items: Array<{ line: number; value: unknown }> = [];
  text.split("\n").forEach((raw, k) => {
    if (raw.trim() === "") return;
    try {
      items.push({ line: k + 1, value: JSON.parse(raw) });
    } catch (err) {
      throw new DataFileError(file, k + 1, `is not JSON: ${jsonErrorReason(err)}`, { cause: err });
    }
  });
  return items;
}

/** Objects to a table: columns are the first object's keys; every object must have them all. */
function fromObjects(items: Array<{ line: number; value: unknown }>, file: string): DataTable {
  const where = (line: number) => file.toLowerCase().endsWith(".json") ? `item ${line}` : "line";
  const first = items[0];
  if (first === undefined) return { columns: [], rows: packRows([], 0) };
  if (!isRecord(first.value)) {
    throw new DataFileError(file, first.line, `${where(first.line)} is not an object`);
  }
  const columns = Object.keys(first.value);
  const rows = items.map(({ line, value }) => {
    if (!isRecord(value)) throw new DataFileError(file, line, `${where(line)} is not an object`);
    const missing = columns.find((c) => !(c in value));
    if (missing !== undefined) {
      throw new DataFileError(
        file,
        line,
        `${where(line)} has no "${missing}"; give every object the keys of the first`,
      );
    }
    return columns.map((c) => textOf(value[c]));
  });
  return { columns, rows: packRows(rows, columns.length) };
}

/** A JSON value as the text a placeholder gets: strings as they are, anything else as JSON. */
function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  return JSON.stringify(v);
}

const QUOTE = 34, COMMA = 44, CR = 13, LF = 10;

/** RFC 4180 CSV as byte ranges, moved down in place; `hasHeader`: the first record is the header. */
function csvPacked(bytes: Uint8Array, file: string, hasHeader: boolean, columns?: number) {
  const fail = (line: number, reason: string) => new DataFileError(file, line, reason);
  const n = bytes.length;
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let w = 0, line = 1, k = 0;
  let ends: Uint32Array = new Uint32Array(1024);
  let header: string[] | undefined;
  let width = columns, count = 0;
  while (i < n) {
    const recordLine = line, kStart = k;
    let any = false;
    for (;;) {
      if (bytes[i] === QUOTE) {
        any = true;
        [i, w, line] = quoted(bytes, i + 1, w, line, recordLine, fail);
      } else {
        let j = i;
        while (j < n && bytes[j] !== COMMA && bytes[j] !== CR && bytes[j] !== LF) {
          if (bytes[j] === QUOTE) throw fail(line, 'a quote (") inside an unquoted field; quote the field');
          j++;
        }
        bytes.copyWithin(w, i, j);
        w += j - i;
        i = j;
      }
      if (k === ends.length) ends = grown(ends, new Uint32Array(ends.length * 2));
      ends[k++] = w;
      if (i < n && bytes[i] === COMMA) {
        any = true;
        i++;
        continue;
      }
      break;
    }
    if (i < n) {
      i += bytes[i] === CR && bytes[i + 1] === LF ? 2 : 1;
      line++;
    }
    const fields = k - kStart;
    if (!any && fields === 1 && ends[kStart] === (kStart === 0 ? 0 : ends[kStart - 1])) {
      k = kStart; // a blank line
      continue;
    }
    if (hasHeader && header === undefined) {
      header = textValues(bytes, ends, kStart, k);
      width ??= header.length;
      k = w = 0;
      continue;
    }
    width ??= fields;
    if (fields !== width) {
      throw fail(
        recordLine,
        `has ${fields} fields; the header has ${width}: give each row ${width} (quote a field with a comma)`,
      );
    }
    count++;
  }
  const packed = { bytes: shared(bytes.subarray(0, w)), ends: shared(ends.subarray(0, k)) };
  return { header, rows: { count, columns: width ?? 0, ...packed } };
}

/** Reads a quoted field from `i` (after its opening quote); returns the next read, write and line. */
function quoted(
  bytes: Uint8Array,
  i: number,
  w: number,
  line: number,
  recordLine: number,
  fail: (line: number, reason: string) => DataFileError,
): [number, number, number] {
  const n = bytes.length;
  for (;;) {
    if (i >= n) {
      throw fail(recordLine, 'a quoted field is not closed; end it with " (write "" for a quote in it)');
    }
    const b = bytes[i];
    if (b === QUOTE) {
      if (bytes[i + 1] === QUOTE) {
        bytes[w++] = QUOTE;
        i += 2;
        continue;
      }
      i++;
      break;
    }
    if (b === LF) line++;
    bytes[w++] = b;
    i++;
  }
  if (i < n && bytes[i] !== COMMA && bytes[i] !== CR && bytes[i] !== LF) {
    throw fail(line, "a quoted field must end at a comma or the end of the line");
  }
  return [i, w, line];
}

function textValues(bytes: Uint8Array, ends: Uint32Array, from: number, to: number): string[] {
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (let k = from; k < to; k++) {
    out.push(decoder.decode(bytes.subarray(k === 0 ? 0 : ends[k - 1], ends[k])));
  }
  return out;
}
