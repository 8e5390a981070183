/**
 * @module
 * RFC 4180 CSV parsed on its bytes: values stay byte ranges and never become strings.
 */
import { type PackedRows, shared } from "../runner/data_rows.ts";

const QUOTE = 34, COMMA = 44, CR = 13, LF = 10;

/** What `csvPacked` found: the header's values (text) and the rows after it. */
interface CsvParse {
  header: string[] | undefined;
  rows: PackedRows;
}

/**
 * Parses `bytes` (consumed: values are moved down in place); with `hasHeader` the first record is the header.
 */
export function csvPacked(bytes: Uint8Array, hasHeader: boolean, columns?: number): CsvParse {
  const fail = (line: number, reason: string) => new CsvError(line, reason);
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
      if (k === ends.length) ends = grown(ends);
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
    if (fields !== width) throw fail(recordLine, `has ${fields} fields; the header has ${width}`);
    count++;
  }
  const rows = { count, columns: width ?? 0, bytes: shared(bytes.subarray(0, w)), ends: sharedEnds(ends, k) };
  return { header, rows };
}

/** Reads a quoted field from `i` (after its opening quote); returns the next read, write and line. */
function quoted(
  bytes: Uint8Array,
  i: number,
  w: number,
  line: number,
  recordLine: number,
  fail: (line: number, reason: string) => CsvError,
): [number, number, number] {
  const n = bytes.length;
  for (;;) {
    if (i >= n) throw fail(recordLine, "a quoted field is not closed");
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

/** A CSV problem at `line`; data_sources.ts names the file in its `DataFileError`. */
export class CsvError extends Error {
  override name = "CsvError";
  constructor(readonly line: number, readonly reason: string) {
    super(`line ${line}: ${reason}`);
  }
}

function textValues(bytes: Uint8Array, ends: Uint32Array, from: number, to: number): string[] {
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (let k = from; k < to; k++) {
    out.push(decoder.decode(bytes.subarray(k === 0 ? 0 : ends[k - 1], ends[k])));
  }
  return out;
}

function grown(ends: Uint32Array): Uint32Array {
  const out = new Uint32Array(ends.length * 2);
  out.set(ends);
  return out;
}

function sharedEnds(ends: Uint32Array, k: number): Uint32Array {
  const out = new Uint32Array(new SharedArrayBuffer(k * 4));
  out.set(ends.subarray(0, k));
  return out;
}
