/**
 * @module
 * The `data:` sources of an experiment file: a CSV file with a header row (RFC 4180 quoting: quoted
 * fields, `""` inside them, commas and line breaks within quotes), a JSON array of objects, or NDJSON
 * (one object a line), its path relative to the experiment file, read once at plan time with a size cap.
 * Every row becomes text values in the header's (or the first object's keys') order; each worker encodes
 * them once (runner/load/feeder.ts). A missing file or a bad row is one problem naming the file and its
 * line, exit 2 before any load.
 */
import { z } from "zod";
import { FileReadError, formatCap, readFileCapped } from "../system/read_capped.ts";
import { VALUE_NAME } from "../runner/session_schema.ts";
import { jsonErrorReason } from "../validation/json_error.ts";

/** Largest data file read: rows are held by every worker, so this is a memory bound too. */
export const MAX_DATA_FILE_BYTES = 64 * 2 ** 20;

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
export type DataSource = z.output<typeof dataSourceSchema>;

/** A data file's columns and rows (text). */
export interface DataTable {
  columns: string[];
  rows: string[][];
}

/** A data file that cannot be used; `line` is 1-based, 0 when the problem is the file as a whole. */
export class DataFileError extends Error {
  override name = "DataFileError";
  constructor(readonly file: string, readonly line: number, readonly reason: string, options?: ErrorOptions) {
    super(`${file}${line > 0 ? `:${line}` : ""}: ${reason}`, options);
  }
}

/** How a CSV without a header row names its columns (Artillery's payload). */
export interface CsvColumns {
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
  const text = new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
  const lower = path.toLowerCase();
  if (csv.fields !== undefined && !lower.endsWith(".csv")) {
    throw new DataFileError(path, 0, "fields and skipHeader apply to CSV files");
  }
  const table = lower.endsWith(".csv")
    ? parseCsv(text, path, csv)
    : lower.endsWith(".json")
    ? fromObjects(parseJsonArray(text, path), path)
    : lower.endsWith(".ndjson") || lower.endsWith(".jsonl")
    ? fromObjects(parseNdjson(text, path), path)
    : null;
  if (table === null) {
    throw new DataFileError(path, 0, "unknown format: name it .csv, .json, .ndjson or .jsonl");
  }
  if (table.rows.length === 0) throw new DataFileError(path, 0, "has no rows");
  const bad = table.columns.find((c) => !VALUE_NAME.test(c));
  if (bad !== undefined) {
    throw new DataFileError(
      path,
      1,
      `column ${JSON.stringify(bad)} is not a name ({{ name }}: letters, digits, _ . -)`,
    );
  }
  return table;
}

/** RFC 4180 records of `text`: each with the line it starts on. */
export function csvRecords(text: string, file: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let start = 1;
  let i = 0;
  let quoted = false;
  let any = false;
  const endRecord = () => {
    fields.push(field);
    if (any || fields.length > 1 || field !== "") records.push({ line: start, fields });
    fields = [];
    field = "";
    any = false;
  };
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i++;
        if (i < text.length && !",\r\n".includes(text[i])) {
          throw new DataFileError(file, line, "a quoted field must end at a comma or the end of the line");
        }
        continue;
      }
      if (c === "\n") line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field === "") {
      quoted = any = true;
      i++;
    } else if (c === ",") {
      fields.push(field);
      field = "";
      any = true;
      i++;
    } else if (c === "\r" || c === "\n") {
      endRecord();
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
      start = ++line;
    } else {
      if (c === '"') {
        throw new DataFileError(file, line, 'a quote (") inside an unquoted field; quote the field');
      }
      field += c;
      i++;
    }
  }
  if (quoted) throw new DataFileError(file, start, "a quoted field is not closed");
  if (any || field !== "" || fields.length > 0) endRecord();
  return records;
}

function parseCsv(text: string, file: string, csv: CsvColumns): DataTable {
  const all = csvRecords(text, file);
  const header = csv.fields === undefined ? all[0] : { line: 0, fields: csv.fields };
  const records = csv.fields === undefined || csv.skipHeader ? all.slice(1) : all;
  if (header === undefined) {
    throw new DataFileError(file, 0, "is empty; a CSV data file starts with a header row");
  }
  const columns = header.fields.map((f) => f.trim());
  for (const r of records) {
    if (r.fields.length !== columns.length) {
      throw new DataFileError(
        file,
        r.line,
        `has ${r.fields.length} fields; the header has ${columns.length}`,
      );
    }
  }
  return { columns, rows: records.map((r) => r.fields) };
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
  if (first === undefined) return { columns: [], rows: [] };
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
  return { columns, rows };
}

/** A JSON value as the text a placeholder gets: strings as they are, anything else as JSON. */
function textOf(v: unknown): string {
  if (typeof v === "string") return v;
  if (v === null || v === undefined) return "";
  return JSON.stringify(v);
}
