/**
 * @module
 * A data source's rows packed for the engine: every value's UTF-8 bytes back to back and where each ends,
 * in SharedArrayBuffers every worker reads without copying (a string per value takes ~60x a CSV's size).
 */
import { grown } from "../system/large_arrays.ts";

/** Rows of `columns` values each: value `k = row * columns + column` is `bytes[ends[k-1] .. ends[k])`. */
export interface PackedRows {
  count: number;
  columns: number;
  bytes: Uint8Array;
  ends: Uint32Array;
}

/** Packs rows of text (each of `columns` values), as a JSON data file or a config of the API gives them. */
export function packRows(rows: ReadonlyArray<ReadonlyArray<string>>, columns: number): PackedRows {
  const encoder = new TextEncoder();
  const ends = new Uint32Array(new SharedArrayBuffer(rows.length * columns * 4));
  let bytes = new Uint8Array(1024);
  let at = 0, k = 0;
  for (const row of rows) {
    for (let c = 0; c < columns; c++) {
      const value = row[c] ?? "";
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      if (bytes.length - at < value.length * 3) {
        bytes = grown(bytes, new Uint8Array(Math.max(at + value.length * 3, 2 * bytes.length)));
      }
      at += encoder.encodeInto(value, bytes.subarray(at)).written;
      ends[k++] = at;
    }
  }
  return { count: rows.length, columns, bytes: shared(bytes.subarray(0, at)), ends };
}

/** A copy of `view` in a SharedArrayBuffer, so workers share it instead of each getting a copy. */
export function shared<T extends Uint8Array | Uint32Array>(view: T): T {
  const out = new (view.constructor as typeof Uint8Array)(new SharedArrayBuffer(view.byteLength)) as T;
  out.set(view);
  return out;
}

/** The values of row `r` as views of the packed bytes (no copy). */
export function rowViews(rows: PackedRows, r: number): Uint8Array[] {
  const out = new Array<Uint8Array>(rows.columns);
  for (let c = 0, k = r * rows.columns; c < rows.columns; c++, k++) {
    out[c] = rows.bytes.subarray(k === 0 ? 0 : rows.ends[k - 1], rows.ends[k]);
  }
  return out;
}

/** True for a value of the packed shape (a config built by the plan), checked without walking it. */
export function isPackedRows(value: unknown): value is PackedRows {
  const v = value as Partial<PackedRows> | null;
  return typeof v === "object" && v !== null && v.bytes instanceof Uint8Array &&
    v.ends instanceof Uint32Array && Number.isInteger(v.count) && Number.isInteger(v.columns) &&
    v.ends.length === v.count! * v.columns!;
}
