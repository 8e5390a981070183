/**
 * @module
 * Where a filled value goes decides what it may hold: in a header value or the path CR, LF and NUL are
 * refused (counted `bad-value`); in the path and query a value is percent-encoded unless `{{ name | raw }}`.
 */
import { formatCap } from "../../system/read_capped.ts";

/** A body: any bytes, as they are. */
export const FILL_BODY = 0;
/** A header field value: no CR, LF or NUL. */
const FILL_FIELD = 1;
/** The path (before the template's `?`): percent-encoded outside the path's characters. */
export const FILL_PATH = 2;
/** The query (after the template's `?`): percent-encoded outside the unreserved characters. */
export const FILL_QUERY = 3;
/** The path or query with `| raw`: as it is, but no CR, LF or NUL. */
const FILL_RAW = 4;

/** Where one placeholder is: how to fill it, and how a refused value is named (no value in it). */
export interface FillPlace {
  fill: number;
  /** "the path", "the query", `header "authorization"`; empty for a body. */
  label: string;
}

export const BODY_PLACE: FillPlace = { fill: FILL_BODY, label: "" };

/** RFC 3986 unreserved characters, kept as they are in a query value (`encodeURIComponent` less `!*'()`). */
const UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
/** A path keeps its segment characters too (RFC 3986 pchar and "/"): a captured `/next/7` stays a path. */
const PATH_CHARS = UNRESERVED + "!$&'()*+,;=:@/";

function keepTable(chars: string): Uint8Array {
  const table = new Uint8Array(256);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

const KEEP_PATH = keepTable(PATH_CHARS);
const KEEP_QUERY = keepTable(UNRESERVED);
const HEX = new TextEncoder().encode("0123456789ABCDEF");

/** Whether `value` may go on a request or header line: no CR, LF or NUL. */
export function fitsOnLine(value: Uint8Array): boolean {
  for (let k = 0; k < value.length; k++) {
    const b = value[k];
    if (b === 13 || b === 10 || b === 0) return false;
  }
  return true;
}

/** Most bytes `value` takes filled at `fill` (percent-encoding triples a byte). */
export function filledBytes(fill: number, value: Uint8Array): number {
  return fill === FILL_PATH || fill === FILL_QUERY ? 3 * value.length : value.length;
}

/** Writes `value` percent-encoded for `fill` (FILL_PATH or FILL_QUERY) at `at`; returns the end. */
export function writeEncoded(buf: Uint8Array, at: number, value: Uint8Array, fill: number): number {
  const keep = fill === FILL_PATH ? KEEP_PATH : KEEP_QUERY;
  for (let k = 0; k < value.length; k++) {
    const b = value[k];
    if (keep[b] === 1) {
      buf[at++] = b;
      continue;
    }
    buf[at++] = 37;
    buf[at++] = HEX[b >> 4];
    buf[at++] = HEX[b & 15];
  }
  return at;
}

/** The count message of a value refused at `place` for placeholder `name` (names only, never the value). */
export function refusedMessage(name: string, place: FillPlace): string {
  return `{{ ${name} }} in ${place.label} holds CR, LF or NUL: not sent`;
}

/** Where a placeholder at `offset` of a request line goes: the path, or the query after a `?`. */
export function urlPlace(text: string, offset: number, raw: boolean): FillPlace {
  const query = text.indexOf("?");
  const inQuery = query >= 0 && query < offset;
  return {
    fill: raw ? FILL_RAW : inQuery ? FILL_QUERY : FILL_PATH,
    label: inQuery ? "the query" : "the path",
  };
}

export function fieldPlace(name: string): FillPlace {
  return { fill: FILL_FIELD, label: `header "${name}"` };
}

/** The largest body, filled or read from a file: every connection's buffer holds it. */
export const MAX_BODY_BYTES = 16 * 2 ** 20;

/** The count message of a body its values would fill past MAX_BODY_BYTES (`bound`: its bytes at most). */
export function bodyTooBigMessage(bound: number): string {
  return `the body its values fill is up to ${formatCap(bound)}, past the ${formatCap(MAX_BODY_BYTES)} a ` +
    "request's body may be: not sent (send a smaller capture or value)";
}
