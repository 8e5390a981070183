/**
 * @module
 * The `data:` sources of an experiment file (CSV, JSON, NDJSON), read once at plan time.
 */
import { z } from "zod";
import { FileReadError, formatCap, readFileCapped } from "../system/read_capped.ts";
import { VALUE_NAME } from "../runner/session_schema.ts";
import { type PackedRows, packRows } from "../runner/data_rows.ts";
import { CsvError, csvPacked } from "./csv_bytes.ts";
import { jsonErrorReason } from "../validation/json_error.ts";

/** Largest data file read: rows are held by every worker, so this is a memory bound too. */
const MAX_DATA_FILE_BYTES = 64 * 2 ** 20;

/** One `data:` entry as the file writes it. */
export const dataSourceSchema = z.strictObject({
  /** CSV (`.csv`), JSON array (`.json`) or NDJSON (`.ndjson`, `.jsonl`), relative to the experiment file. */
  file: z.string().min(1),
  /** `sequential` (default), `random`, or `unique` (each row once across workers and segments). */
  order: z.enum(["sequential", "random", "unique"]).default("sequential"),
  /** When a worker's rows are used up: `wrap` (default; not with unique) or `stop` (unique's only choice). */
  whenDone: z.enum(["wrap", "stop"]).optional(),
  /** CSV without a header row (Artillery's payload `fields`): the column names, in order. */
  fields: z.array(z.string().min(1)).min(1).optional(),
  /** With `fields`: the file's first row is a header all the same; skip it. */
  skipHeader: z.boolean().optional(),
}).superRefine((d, ctx) => {
  if (d.skipHeader !== undefined && d.fields === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["skipHeader"],
      message: "skipHeader goes with fields (a CSV without a header)",
    });
  }
  if (d.order === "unique" && d.whenDone === "wrap") {
    ctx.addIssue({
      code: "custom",
      path: ["whenDone"],
      message: "unique uses each row once, so it ends with stop; use order: sequential to wrap",
    });
  }
  if (d.order === "random" && d.whenDone !== undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["whenDone"],
      message: "random picks never run out; drop whenDone",
    });
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
interface CsvColumns {
  fields?: string[];
  skipHeader?: boolean;
}

/** Reads and parses the data file at `path` (its format from the extension). */
export function readDataFile(path: string, csv: CsvColumns = {}): DataTable {
  let bytes: Uint8Array;
  try {
    bytes = readFileCapped(path, MAX_DATA_FILE_BYTES);
  } catch (err) {
    if (err instanceof FileReadError) {
      throw new DataFileError(
        path,
        0,
        `${err.reason} (data files are read up to ${formatCap(MAX_DATA_FILE_BYTES)})`,
        {
          cause: err,
        },
      );
    }
    throw err;
  }
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
  if (table.rows.count === 0) throw new DataFileError(path, 0, "has no rows");
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
  // One pass with a map, so a header of 200,000 columns takes no quadratic time.
  const first = new Map<string, number>();
  for (const [k, name] of columns.entries()) {
    const seen = first.get(name);
    if (seen === undefined) {
      first.set(name, k);
      continue;
    }
    throw new DataFileError(
      path,
      line,
      `column ${JSON.stringify(name)} appears twice in ${where} (columns ${seen + 1} and ${
        k + 1
      }); rename one, e.g. ${JSON.stringify(`${name}_2`)}`,
    );
  }
}

function parseCsv(bytes: Uint8Array, file: string, csv: CsvColumns): DataTable {
  let parsed;
  try {
    parsed = csvPacked(bytes, csv.fields === undefined || csv.skipHeader === true, csv.fields?.length);
  } catch (err) {
    if (err instanceof CsvError) throw new DataFileError(file, err.line, err.reason, { cause: err });
    throw err;
  }
  const columns = csv.fields ?? parsed.header?.map((f) => f.trim());
  if (columns === undefined) {
    throw new DataFileError(file, 0, "is empty; a CSV data file starts with a header row");
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
  if (!Array.isArray(value)) throw new DataFileError(file, 0, "a JSON data file is an array of objects");
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
  const isObject = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === "object" && !Array.isArray(v);
  const where = (line: number) => file.toLowerCase().endsWith(".json") ? `item ${line}` : "line";
  const first = items[0];
  if (first === undefined) return { columns: [], rows: packRows([], 0) };
  if (!isObject(first.value)) {
    throw new DataFileError(file, first.line, `${where(first.line)} is not an object`);
  }
  const columns = Object.keys(first.value);
  const rows = items.map(({ line, value }) => {
    if (!isObject(value)) throw new DataFileError(file, line, `${where(line)} is not an object`);
    const missing = columns.find((c) => !(c in value));
    if (missing !== undefined) throw new DataFileError(file, line, `${where(line)} has no "${missing}"`);
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
