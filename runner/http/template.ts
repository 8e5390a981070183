/**
 * @module
 * `{{ name }}` requests split once into segments and slots. HOT PATH: `TemplateWriter.fill` allocates none.
 */
import { copyBytes } from "../../system/copy_bytes.ts";
import {
  BODY_PLACE,
  bodyTooBigMessage,
  fieldPlace,
  FILL_BODY,
  FILL_PATH,
  FILL_QUERY,
  filledBytes,
  type FillPlace,
  fitsOnLine,
  MAX_BODY_BYTES,
  refusedMessage,
  urlPlace,
  writeEncoded,
} from "./fill_values.ts";

/** The engine's own random numbers, taken before any script can seed `Math.random`. */
export const engineRandom = Math.random;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Slot kinds below 0; 0 and above index the values. */
const RANDOM_NUMBER = -1;
const RANDOM_STRING = -2;
const NOW = -3;
const WORKER = -4;
/** `$now(unit)`'s units, by their code in a slot's args. */
const NOW_UNITS = ["s", "ms", "ns", "rfc3339"];

const PLACEHOLDER = /\{\{\s*(.*?)\s*\}\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** `name | raw`: a path or query value sent unencoded. */
const RAW_NAME = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*\|\s*raw$/;
const RANDOM_NUMBER_CALL = /^\$randomNumber\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$/;
const RANDOM_STRING_CALL = /^\$randomString\(\s*(\d+)?\s*\)$/;
/** Longest `$randomString` (16 MiB: a gRPC message's few MiB fit); longer is a typo inflating the buffer. */
const MAX_RANDOM_STRING = 2 ** 24;

/** One placeholder as written: a variable name, or a built-in call as its slot kind and two arguments. */
type Placeholder =
  | { kind: "name"; name: string; raw: boolean }
  | { kind: "built-in"; slot: number; args: number[] };

export function hasPlaceholder(text: string): boolean {
  return text.includes("{{");
}

function placeholderOf(expr: string): Placeholder | string {
  if (NAME.test(expr)) return { kind: "name", name: expr, raw: false };
  const raw = RAW_NAME.exec(expr);
  if (raw) return { kind: "name", name: raw[1], raw: true };
  const number = RANDOM_NUMBER_CALL.exec(expr);
  if (number) {
    const [min, max] = [Number(number[1]), Number(number[2])];
    if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || min > max) {
      return `{{ ${expr} }}: $randomNumber(min,max) needs integers with min <= max`;
    }
    return { kind: "built-in", slot: RANDOM_NUMBER, args: [min, max] };
  }
  const string = RANDOM_STRING_CALL.exec(expr);
  if (string) {
    const length = string[1] === undefined ? 10 : Number(string[1]);
    if (length < 1 || length > MAX_RANDOM_STRING) {
      return `{{ ${expr} }}: $randomString(n) needs 1 <= n <= ${MAX_RANDOM_STRING}`;
    }
    return { kind: "built-in", slot: RANDOM_STRING, args: [length, 0] };
  }
  const uuid = /^\$uuid\(\s*(request)?\s*\)$/.exec(expr);
  if (uuid) return { kind: "built-in", slot: RANDOM_STRING, args: [36, uuid[1] ? 2 : 1] };
  if (/^\$worker\(\s*\)$/.test(expr)) return { kind: "built-in", slot: WORKER, args: [0, 0] };
  const now = /^\$now\(\s*(\w*)\s*(,\s*request\s*)?\)$/.exec(expr);
  const unit = NOW_UNITS.indexOf(now?.[1] ?? "");
  if (unit >= 0) return { kind: "built-in", slot: NOW, args: [unit, now![2] ? 1 : 0] };
  return `{{ ${expr} }} is neither a name (letters, digits, _ . -), a name | raw, nor $randomNumber(min,max) / $randomString(n) / $uuid() / $uuid(request) / $now(s|ms|ns|rfc3339[, request]) / $worker()`;
}

export function placeholdersOf(text: string): Array<Placeholder | string> {
  return [...text.matchAll(PLACEHOLDER)].map((m) => placeholderOf(m[1]));
}

/** `text` as literal strings and value indexes, where a filled text is needed (a path's cookie scope). */
export function textParts(text: string, indexOf: (name: string) => number): Array<string | number> {
  const parts: Array<string | number> = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    parts.push(text.slice(last, m.index));
    last = m.index + m[0].length;
    const p = placeholderOf(m[1]);
    parts.push(typeof p !== "string" && p.kind === "name" ? indexOf(p.name) : "");
  }
  parts.push(text.slice(last));
  return parts;
}

/** Segments and slots of one text: `segments.length === slots.length + 1`. */
export interface Parts {
  segments: Uint8Array[];
  slots: Int32Array;
  /** Per slot: min and max ($randomNumber), or length in [0] and [1] 1 for $uuid(), 2 for $uuid(request). */
  args: Float64Array;
  /** Per slot: where its value goes (fill_values.ts `FILL_*`). */
  fills: Uint8Array;
  /** Per slot: the count message when its value is refused (names only). */
  messages: string[];
  fixedBytes: number;
}

/** `text` split into segments and slots placed by `placeOf`; throws `TemplateError` for an unfillable one. */
export function partsOf(
  text: string,
  indexOf: (name: string) => number,
  placeOf: (offset: number, raw: boolean) => FillPlace = () => BODY_PLACE,
): Parts {
  const segments: Uint8Array[] = [];
  const slots: number[] = [];
  const args: number[] = [];
  const fills: number[] = [];
  const messages: string[] = [];
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    segments.push(encoder.encode(text.slice(last, m.index)));
    last = m.index + m[0].length;
    const p = placeholderOf(m[1]);
    if (typeof p === "string") throw new TemplateError(p);
    const place = p.kind === "name" ? placeOf(m.index, p.raw) : BODY_PLACE;
    fills.push(place.fill);
    messages.push(p.kind === "name" && place.fill !== FILL_BODY ? refusedMessage(p.name, place) : "");
    if (p.kind === "name") {
      const index = indexOf(p.name);
      if (index < 0) throw new TemplateError(`{{ ${p.name} }} is not a data column or an earlier capture`);
      slots.push(index);
      args.push(0, 0);
    } else {
      slots.push(p.slot);
      args.push(...p.args);
    }
  }
  segments.push(encoder.encode(text.slice(last)));
  const fixedBytes = segments.reduce((sum, s) => sum + s.length, 0);
  return {
    segments,
    slots: Int32Array.from(slots),
    args: Float64Array.from(args),
    fills: Uint8Array.from(fills),
    messages,
    fixedBytes,
  };
}

/** The place of a placeholder at `offset` of a head: the path or query, or its header line's value. */
function headPlace(head: string, offset: number, raw: boolean): FillPlace {
  const lineEnd = head.indexOf("\r\n");
  if (offset < lineEnd) return urlPlace(head.slice(0, lineEnd), offset, raw);
  const lineStart = head.lastIndexOf("\r\n", offset) + 2;
  return fieldPlace(head.slice(lineStart, head.indexOf(":", lineStart)));
}

export function bodyPartsOf(body: Uint8Array | undefined, indexOf: (name: string) => number): Parts {
  const text = body === undefined ? "" : decoder.decode(body);
  if (body === undefined || hasPlaceholder(text)) return partsOf(text, indexOf);
  return { ...partsOf("", indexOf), segments: [body], fixedBytes: body.length };
}

/** A placeholder that cannot be built (unknown name, bad call); the plan checks first, so a bug of ours. */
class TemplateError extends Error {
  override name = "TemplateError";
}

/** A request split into parts: the head up to its last header line, then the body. */
export interface RequestTemplate {
  head: Parts;
  body: Parts;
  /** Add `Content-Length` computed from the body's parts (a body or a method that carries one). */
  autoLength: boolean;
}

export function buildTemplate(
  headText: string,
  body: Uint8Array | undefined,
  autoLength: boolean,
  indexOf: (name: string) => number,
): RequestTemplate {
  const head = partsOf(headText, indexOf, (offset, raw) => headPlace(headText, offset, raw));
  return { head, body: bodyPartsOf(body, indexOf), autoLength };
}

const ALNUM = encoder.encode("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
const HEX = encoder.encode("0123456789abcdef");
const CONTENT_LENGTH = encoder.encode("Content-Length: ");
const CRLF_CHARS = [13, 10];

/** Most bytes `parts` can take with these values (random numbers: 20 digits and a sign). */
export function upperBound(parts: Parts, values: ReadonlyArray<Uint8Array>): number {
  let bytes = parts.fixedBytes;
  const slots = parts.slots;
  for (let k = 0; k < slots.length; k++) {
    const slot = slots[k];
    if (slot >= 0) {
      const value = values[slot];
      if (value !== undefined) bytes += filledBytes(parts.fills[k], value);
    } else if (slot === WORKER) bytes += fillLane.id.length;
    else bytes += slot === RANDOM_NUMBER || slot === NOW ? 21 : parts.args[2 * k];
  }
  return bytes;
}

/** Writes `parts` at `at`; the end, or `-1 - k` when slot k's value is refused (`parts.messages[k]`). */
export function writeParts(
  buf: Uint8Array,
  at: number,
  parts: Parts,
  values: ReadonlyArray<Uint8Array>,
): number {
  const { segments, slots, args, fills } = parts;
  for (let k = 0; k < slots.length; k++) {
    at = copyBytes(buf, at, segments[k], 0, segments[k].length);
    const slot = slots[k];
    if (slot >= 0) {
      const value = values[slot];
      if (value === undefined) continue;
      const fill = fills[k];
      if (fill !== FILL_BODY && !fitsOnLine(value)) return -1 - k;
      at = fill === FILL_PATH || fill === FILL_QUERY
        ? writeEncoded(buf, at, value, fill)
        : copyBytes(buf, at, value, 0, value.length);
    } else if (slot === RANDOM_NUMBER) {
      const min = args[2 * k];
      at = writeInt(buf, at, min + Math.floor(engineRandom() * (args[2 * k + 1] - min + 1)));
    } else if (slot === NOW) {
      at = writeNow(buf, at, args[2 * k], args[2 * k + 1] === 1 ? requestRead().nowMs : wallMs());
    } else if (slot === WORKER) at = copyBytes(buf, at, fillLane.id, 0, fillLane.id.length);
    else if (args[2 * k + 1] === 1) {
      for (let i = 0; i < 36; i++) buf[at++] = uuidChar(i);
    } else if (args[2 * k + 1] === 2) {
      if (requestRead().uuid[0] === 0) { for (let i = 0; i < 36; i++) fillLane.uuid[i] = uuidChar(i); }
      at = copyBytes(buf, at, fillLane.uuid, 0, 36);
    } else {
      const end = at + args[2 * k];
      for (; at < end; at++) buf[at] = ALNUM[(engineRandom() * ALNUM.length) | 0];
    }
  }
  return copyBytes(buf, at, segments[slots.length], 0, segments[slots.length].length);
}

/**
 * The lane filling requests now, as ghz names a worker (`g<lane>c<connection>`), and the request's own
 * values, read at its first slot of one: its time (`$now(unit, request)`) and `$uuid(request)` (drawn
 * where `uuid[0]` is 0). A fill begins by setting `id`, and `uuidDrawn` false.
 */
export const fillLane: { id: Uint8Array; uuid: Uint8Array; uuidDrawn: boolean; nowMs: number } = {
  id: new Uint8Array(0),
  uuid: new Uint8Array(36),
  uuidDrawn: false,
  nowMs: 0,
};

function requestRead(): typeof fillLane {
  if (!fillLane.uuidDrawn) [fillLane.uuidDrawn, fillLane.uuid[0], fillLane.nowMs] = [true, 0, wallMs()];
  return fillLane;
}

const wallMs = () => performance.timeOrigin + performance.now();

let rfc3339: [number, Uint8Array] = [-1, new Uint8Array(0)];

/** Writes the time `ms` in `$now`'s unit: Unix seconds, ms or ns (to the microsecond), or RFC 3339. */
function writeNow(buf: Uint8Array, at: number, unit: number, ms: number): number {
  const s = Math.floor(ms / 1000);
  if (unit === 3 && s !== rfc3339[0]) {
    rfc3339 = [s, encoder.encode(new Date(s * 1000).toISOString().slice(0, 19) + "Z")];
  }
  if (unit === 3) return copyBytes(buf, at, rfc3339[1], 0, rfc3339[1].length);
  at = writeInt(buf, at, unit === 0 ? s : Math.floor(ms));
  for (let d = 1e5; unit === 2 && d >= 1; d /= 10) buf[at++] = 48 + (Math.floor(((ms % 1) * 1e6) / d) % 10);
  return at;
}

/** Character `i` of a random UUID v4 (RFC 9562): hex, dashes at 8, 13, 18 and 23, version 4, variant 8-b. */
function uuidChar(i: number): number {
  if (i === 8 || i === 13 || i === 18 || i === 23) return 45;
  return HEX[i === 14 ? 4 : i === 19 ? 8 + ((engineRandom() * 4) | 0) : (engineRandom() * 16) | 0];
}

export function writeInt(buf: Uint8Array, at: number, n: number): number {
  if (n < 0) {
    buf[at++] = 45;
    n = -n;
  }
  let digits = 1;
  for (let p = 10; p <= n; p *= 10) digits++;
  for (let k = at + digits - 1; k >= at; k--) {
    buf[k] = 48 + (n % 10);
    n = Math.floor(n / 10);
  }
  return at + digits;
}

/** Fills templates into one reused buffer per connection; the body goes past the head's bound, then moves. */
export class TemplateWriter {
  #buf = new Uint8Array(0);
  #view = this.#buf.subarray(0, 0);
  /** Why the last `fill` returned null: the refused slot's count message. */
  refused = "";

  /** The bytes of `t` with `values` and `extraHead` (a CRLF-ended line); null when refused (`refused`). */
  fill(
    t: RequestTemplate,
    values: ReadonlyArray<Uint8Array>,
    extraHead: Uint8Array | null,
  ): Uint8Array | null {
    const bodyMax = upperBound(t.body, values);
    if (bodyMax > MAX_BODY_BYTES) {
      this.refused = bodyTooBigMessage(bodyMax);
      return null;
    }
    const extraBytes = extraHead === null ? 0 : extraHead.length;
    const headMax = upperBound(t.head, values) + CONTENT_LENGTH.length + 18 + extraBytes + 2;
    const need = headMax + bodyMax;
    if (this.#buf.length < need) this.#buf = new Uint8Array(Math.max(need, 2 * this.#buf.length));
    const buf = this.#buf;
    const bodyBytes = writeParts(buf, headMax, t.body, values) - headMax;
    let at = writeParts(buf, 0, t.head, values);
    if (at < 0) {
      this.refused = t.head.messages[-1 - at];
      return null;
    }
    if (t.autoLength) {
      at = writeInt(buf, copyBytes(buf, at, CONTENT_LENGTH, 0, CONTENT_LENGTH.length), bodyBytes);
      buf[at++] = CRLF_CHARS[0];
      buf[at++] = CRLF_CHARS[1];
    }
    if (extraHead !== null) at = copyBytes(buf, at, extraHead, 0, extraHead.length);
    buf[at++] = 13;
    buf[at++] = 10;
    if (bodyBytes > 0) buf.copyWithin(at, headMax, headMax + bodyBytes);
    const length = at + bodyBytes;
    if (this.#view.length !== length || this.#view.buffer !== buf.buffer) {
      this.#view = buf.subarray(0, length);
    }
    return this.#view;
  }
}
