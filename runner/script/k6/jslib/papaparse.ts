/**
 * @module
 * k6's jslib Papa Parse, served locally: the `Papa.parse` scripts use on text they `open()`, in its shape.
 */

interface ParseConfig {
  delimiter?: string;
  quoteChar?: string;
  header?: boolean;
  dynamicTyping?: boolean;
  skipEmptyLines?: boolean | "greedy";
  transformHeader?: (header: string, index: number) => string;
}

interface ParseError {
  type: "FieldMismatch" | "Quotes";
  code: "TooFewFields" | "TooManyFields" | "MissingQuotes";
  message: string;
  row: number;
}

interface ParseResult {
  data: unknown[];
  errors: ParseError[];
  meta: {
    delimiter: string;
    linebreak: string;
    aborted: boolean;
    truncated: boolean;
    cursor: number;
    fields?: string[];
  };
}

/** `Papa.parse(text, config)`: rows as arrays of fields, or objects with `header`. */
export function parse(text: string, config: ParseConfig = {}): ParseResult {
  const delimiter = config.delimiter || ",", quote = config.quoteChar ?? '"';
  const errors: ParseError[] = [];
  let rows = splitRows(String(text), delimiter, quote, errors);
  if (config.skipEmptyLines === true) rows = rows.filter((r) => !(r.length === 1 && r[0] === ""));
  if (config.skipEmptyLines === "greedy") rows = rows.filter((r) => r.some((f) => f.trim() !== ""));
  const typed = (field: string) => (config.dynamicTyping ? typedValue(field) : field);
  const linebreak = text.includes("\r\n") ? "\r\n" : "\n";
  const meta = { delimiter, linebreak, aborted: false, truncated: false };
  if (!config.header) {
    return { data: rows.map((r) => r.map(typed)), errors, meta: { ...meta, cursor: text.length } };
  }
  const fields = (rows.shift() ?? []).map((h, k) => config.transformHeader?.(h, k) ?? h);
  const data = rows.map((r, k) => {
    if (r.length !== fields.length) {
      const few = r.length < fields.length, code = few ? "TooFewFields" : "TooManyFields";
      const message = `Too ${
        few ? "few" : "many"
      } fields: expected ${fields.length} fields but parsed ${r.length}`;
      errors.push({ type: "FieldMismatch", code, message, row: k });
    }
    const row: Record<string, unknown> = {};
    r.forEach((field, i) => {
      if (i < fields.length) row[fields[i]] = typed(field);
      else ((row.__parsed_extra ??= []) as unknown[]).push(typed(field));
    });
    return row;
  });
  return { data, errors, meta: { ...meta, fields, cursor: text.length } };
}

const UNTERMINATED = { type: "Quotes", code: "MissingQuotes", message: "Quoted field unterminated" } as const;

function splitRows(text: string, delimiter: string, quote: string, errors: ParseError[]): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = "", at = 0;
  if (text.length === 0) return [];
  while (at <= text.length) {
    if (text.startsWith(quote, at) && field === "") {
      const end = closingQuote(text, at + quote.length, quote);
      if (end < 0) {
        errors.push({ ...UNTERMINATED, row: rows.length });
        field = text.slice(at + quote.length).replaceAll(quote + quote, quote);
        at = text.length;
      } else {
        field = text.slice(at + quote.length, end).replaceAll(quote + quote, quote);
        at = end + quote.length;
      }
      continue;
    }
    if (at === text.length) break;
    if (text.startsWith(delimiter, at)) {
      row.push(field), field = "", at += delimiter.length;
    } else if (text[at] === "\n" || text.startsWith("\r\n", at)) {
      row.push(field), rows.push(row), row = [], field = "";
      at += text[at] === "\n" ? 1 : 2;
    } else field += text[at++];
  }
  row.push(field), rows.push(row);
  return rows;
}

function closingQuote(text: string, from: number, quote: string): number {
  for (let at = from;;) {
    const next = text.indexOf(quote, at);
    if (next < 0) return -1;
    if (!text.startsWith(quote, next + quote.length)) return next;
    at = next + 2 * quote.length;
  }
}

/** A field as Papa Parse's dynamicTyping reads it: a number, a boolean, null for an empty one, else text. */
function typedValue(field: string): unknown {
  if (field === "true" || field === "TRUE") return true;
  if (field === "false" || field === "FALSE") return false;
  if (field === "") return null;
  return /^\s*-?(\d+\.?|\.\d+|\d+\.\d+)([eE][-+]?\d+)?\s*$/.test(field) ? Number(field) : field;
}

export default { parse };
