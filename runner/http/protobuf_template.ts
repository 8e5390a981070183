/**
 * @module
 * gRPC messages with `{{ placeholders }}`, filled and protobuf-encoded per call, each slot read as its
 * field's kind (proto3 JSON's forms). HOT PATH: no allocation but for floats, big int64s and gzip.
 */
import { copyBytes } from "../../system/copy_bytes.ts";
import { type Parts, partsOf, upperBound, writeParts } from "./template.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, MESSAGE_PREFIX_BYTES, writeMessagePrefix } from "../../grpc/framing.ts";
import { gzipSync } from "node:zlib";
import {
  decodeBase64,
  floatOf,
  integerOf,
  writeFloat,
  writeLittle,
  writeVarint,
  zigzag,
} from "../../grpc/protobuf_wire.ts";
import type { GrpcBodySpec, GrpcMessageSpec, GrpcSlotSpec } from "./grpc_body_spec.ts";
import { GRPC_SLOT_KINDS } from "./grpc_body_spec.ts";

/** GRPC_SLOT_KINDS' indices. */
const STRING = 0, BYTES = 1, BOOL = 2, ENUM = 3, MESSAGE = 4, FLOAT = 5, DOUBLE = 6;
const INT32 = 7, INT64 = 8, UINT32 = 9, UINT64 = 10, SINT32 = 11, SINT64 = 12;
const FIXED32 = 13, FIXED64 = 14, SFIXED32 = 15, SFIXED64 = 16;
interface Slot {
  /** The field's key (number and wire type) as a varint. */
  readonly tag: Uint8Array;
  readonly kind: number;
  readonly parts: Parts | null;
  readonly message: MessageTemplate | null;
  readonly enumNames: readonly Uint8Array[];
  readonly enumNumbers: Int32Array;
  /** The count message when its filled value is not of its kind. */
  readonly refused: string;
}

interface MessageTemplate {
  readonly pieces: readonly Uint8Array[];
  readonly slots: readonly Slot[];
}

export interface GrpcBodyTemplate {
  readonly messages: readonly MessageTemplate[];
  readonly gzip: boolean;
  readonly maxSendBytes: number;
  /** The count message of a filled message over `maxSendBytes`. */
  readonly overCap: string;
}

const encoder = new TextEncoder();

/** `spec` with each slot's text split into parts; `indexOf` maps a value's name to its index. */
export function grpcBodyTemplate(spec: GrpcBodySpec, indexOf: (name: string) => number): GrpcBodyTemplate {
  const maxSendBytes = spec.maxSendBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  return {
    messages: spec.messages.map((m) => messageTemplate(m, indexOf)),
    gzip: spec.compress === "gzip",
    maxSendBytes,
    overCap: `message as filled is over the ${maxSendBytes}-byte send cap (--max-send): not sent`,
  };
}

function messageTemplate(spec: GrpcMessageSpec, indexOf: (name: string) => number): MessageTemplate {
  return { pieces: spec.pieces, slots: spec.slots.map((s) => slotOf(s, indexOf)) };
}

function slotOf(s: GrpcSlotSpec, indexOf: (name: string) => number): Slot {
  const kind = GRPC_SLOT_KINDS.indexOf(s.kind);
  const wire = kind === STRING || kind === BYTES || kind === MESSAGE
    ? 2
    : kind === FIXED64 || kind === SFIXED64 || kind === DOUBLE
    ? 1
    : kind === FIXED32 || kind === SFIXED32 || kind === FLOAT
    ? 5
    : 0;
  const tag = new Uint8Array(5);
  const enums = Object.entries(s.enumValues ?? {});
  return {
    tag: tag.slice(0, writeVarint(tag, 0, ((s.field << 3) | wire) >>> 0, 0)),
    kind,
    parts: s.text === undefined ? null : partsOf(s.text, indexOf),
    message: s.message === undefined ? null : messageTemplate(s.message, indexOf),
    enumNames: enums.map(([name]) => encoder.encode(name)),
    enumNumbers: Int32Array.from(enums.map(([, n]) => n)),
    refused: `${s.path} as filled is not ${
      s.kind === "enum" ? "a value of its enum" : `a ${s.kind}`
    }: not sent`,
  };
}

/** Bytes a slot reserves before its value's text: its tag and the longest varint or length. */
const RESERVE = 10;

export function grpcBodyBound(t: GrpcBodyTemplate, values: ReadonlyArray<Uint8Array>): number {
  let bytes = 0;
  for (const m of t.messages) {
    const n = messageBound(m, values);
    // gzip can grow what it cannot shrink: zlib's deflateBound, with room for the gzip wrapper.
    bytes += MESSAGE_PREFIX_BYTES + n + (t.gzip ? (n >> 12) + (n >> 14) + 64 : 0);
  }
  return bytes;
}

function messageBound(m: MessageTemplate, values: ReadonlyArray<Uint8Array>): number {
  let bytes = 0;
  for (const piece of m.pieces) bytes += piece.length;
  for (const slot of m.slots) {
    bytes += slot.tag.length + RESERVE +
      (slot.message !== null ? messageBound(slot.message, values) : upperBound(slot.parts!, values));
  }
  return bytes;
}

/** What a refused call is counted as: a value not of its kind, or a message over the send cap. */
export type RefusalKind = "bad-value" | "grpc RESOURCE_EXHAUSTED";

/** Where a refusal's message and kind go (the caller's `refused`, `refusedKind`). */
export interface RefusalSink {
  refused: string;
  refusedKind: RefusalKind;
}

/** Writes `t`'s messages filled and length-prefixed at `at`; the end, or -1 when refused. */
export function writeGrpcBody(
  buf: Uint8Array,
  at: number,
  t: GrpcBodyTemplate,
  values: ReadonlyArray<Uint8Array>,
  sink: RefusalSink,
): number {
  for (const m of t.messages) {
    const from = at + MESSAGE_PREFIX_BYTES;
    let end = writeMessage(buf, from, m, values, sink);
    sink.refusedKind = "bad-value";
    if (end < 0) return -1;
    if (end - from > t.maxSendBytes) {
      sink.refused = t.overCap;
      sink.refusedKind = "grpc RESOURCE_EXHAUSTED";
      return -1;
    }
    if (t.gzip) {
      const packed = gzipSync(buf.subarray(from, end));
      buf.set(packed, from);
      end = from + packed.length;
    }
    writeMessagePrefix(buf, at, end - from, t.gzip);
    at = end;
  }
  return at;
}

function writeMessage(
  buf: Uint8Array,
  at: number,
  m: MessageTemplate,
  values: ReadonlyArray<Uint8Array>,
  sink: RefusalSink,
): number {
  const { pieces, slots } = m;
  for (let k = 0; k < slots.length; k++) {
    at = copyBytes(buf, at, pieces[k], 0, pieces[k].length);
    at = writeSlot(buf, at, slots[k], values, sink);
    if (at < 0) return -1;
  }
  return copyBytes(buf, at, pieces[slots.length], 0, pieces[slots.length].length);
}

/** One slot at `at`: its value filled past the reserve, read, and written as protobuf at `at`. */
function writeSlot(
  buf: Uint8Array,
  at: number,
  slot: Slot,
  values: ReadonlyArray<Uint8Array>,
  sink: RefusalSink,
): number {
  const from = at + slot.tag.length + RESERVE;
  let to = slot.message !== null
    ? writeMessage(buf, from, slot.message, values, sink)
    : writeParts(buf, from, slot.parts!, values);
  // A nested message's refusal names its own field.
  if (to < 0) return -1;
  if (slot.kind === BYTES) to = decodeBase64(buf, from, to);
  const end = to < 0 ? -1 : writeValue(buf, copyBytes(buf, at, slot.tag, 0, slot.tag.length), slot, from, to);
  if (end < 0) sink.refused = slot.refused;
  return end;
}

/** The value read from `buf[from, to)` written at `at` (a length-delimited one moved there); -1: not one. */
function writeValue(buf: Uint8Array, at: number, slot: Slot, from: number, to: number): number {
  const kind = slot.kind;
  if (kind === STRING || kind === BYTES || kind === MESSAGE) {
    at = writeVarint(buf, at, to - from, 0);
    buf.copyWithin(at, from, to);
    return at + to - from;
  }
  if (kind === BOOL) {
    const b = matches(buf, from, to, TRUE) ? 1 : matches(buf, from, to, FALSE) ? 0 : -1;
    return b < 0 ? -1 : writeVarint(buf, at, b, 0);
  }
  if (kind === FLOAT || kind === DOUBLE) {
    const n = floatOf(buf, from, to);
    if (n === null) return -1;
    return writeFloat(buf, at, n, kind === FLOAT ? 4 : 8);
  }
  let n = integerOf(buf, from, to);
  if (kind === ENUM && n === null) n = enumNumber(slot, buf, from, to);
  if (n === null || !inRange(kind, n)) return -1;
  if (kind === SINT32 || kind === SINT64) n = zigzag(n);
  const lo = typeof n === "bigint" ? Number(BigInt.asUintN(32, n)) : n >>> 0;
  const hi = typeof n === "bigint" ? Number(BigInt.asUintN(32, n >> 32n)) : Math.floor(n / 2 ** 32) >>> 0;
  if (kind === FIXED32 || kind === SFIXED32) return writeLittle(buf, at, lo, 4);
  if (kind === FIXED64 || kind === SFIXED64) return writeLittle(buf, writeLittle(buf, at, lo, 4), hi, 4);
  // int32 and enum values below 0 go as 64-bit (sign-extended), as protobuf sends them.
  return writeVarint(buf, at, lo, hi);
}

const RANGES: Record<number, readonly [number | bigint, number | bigint]> = {
  [ENUM]: [-(2 ** 31), 2 ** 31 - 1],
  [INT32]: [-(2 ** 31), 2 ** 31 - 1],
  [SINT32]: [-(2 ** 31), 2 ** 31 - 1],
  [SFIXED32]: [-(2 ** 31), 2 ** 31 - 1],
  [UINT32]: [0, 2 ** 32 - 1],
  [FIXED32]: [0, 2 ** 32 - 1],
  [INT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [SINT64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [SFIXED64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [UINT64]: [0, 2n ** 64n - 1n],
  [FIXED64]: [0, 2n ** 64n - 1n],
};

function inRange(kind: number, n: number | bigint): boolean {
  const range = RANGES[kind];
  return n >= range[0] && n <= range[1];
}

const TRUE = encoder.encode("true");
const FALSE = encoder.encode("false");

function matches(buf: Uint8Array, from: number, to: number, word: Uint8Array): boolean {
  if (to - from !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (buf[from + k] !== word[k]) return false;
  return true;
}

function enumNumber(slot: Slot, buf: Uint8Array, from: number, to: number): number | null {
  for (let k = 0; k < slot.enumNames.length; k++) {
    if (matches(buf, from, to, slot.enumNames[k])) return slot.enumNumbers[k];
  }
  return null;
}
