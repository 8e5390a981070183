/**
 * @module
 * The few protobuf wire types remote write and OTLP need, written by hand: varints, fixed64, doubles,
 * length-delimited strings and nested messages. Pure.
 */

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;

const utf8 = new TextEncoder();
/** Strings met before (label names and values repeat in every point), UTF-8 encoded once. */
const encodedStrings = new Map<string, Uint8Array>();
const MAX_CACHED_STRINGS = 10_000;
/** One double's bytes: a Float64Array and a byte view of the same 8 bytes (little-endian hosts). */
const float64 = new Float64Array(1);
const float64Bytes = new Uint8Array(float64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Appends protobuf fields to a growing buffer; `finish` returns the bytes. */
export class ProtoWriter {
  #buf = new Uint8Array(256);
  #len = 0;

  #ensure(extra: number): void {
    if (this.#len + extra <= this.#buf.length) return;
    const grown = new Uint8Array(Math.max(this.#buf.length * 2, this.#len + extra));
    grown.set(this.#buf.subarray(0, this.#len));
    this.#buf = grown;
  }

  /** A raw varint of a non-negative integer below 2^53 (arithmetic, not 32-bit shifts). */
  #varint(value: number): void {
    this.#ensure(10);
    let v = value;
    while (v >= 0x80) {
      this.#buf[this.#len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.#buf[this.#len++] = v;
  }

  #tag(field: number, wire: number): void {
    this.#varint(field * 8 + wire);
  }

  /** A varint of a non-negative safe integer; a RangeError for any other value. */
  #unsigned(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new RangeError(`not a safe unsigned integer: ${value}`);
    }
    this.#varint(value);
  }

  /** A zig-zag varint of a safe integer; a RangeError for any other value. */
  #signed(value: number): void {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
    this.#varint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** uint32/uint64/int64/enum field of a non-negative value. */
  uint(field: number, value: number): this {
    this.#tag(field, WIRE_VARINT);
    this.#unsigned(value);
    return this;
  }

  /** sint32/sint64 field (zig-zag). */
  sint(field: number, value: number): this {
    this.#tag(field, WIRE_VARINT);
    this.#signed(value);
    return this;
  }

  /** repeated sint64 field, packed. */
  packedSint(field: number, values: number[]): this {
    return this.message(field, (w) => values.forEach((value) => w.#signed(value)));
  }

  /** repeated uint64 field of non-negative values, packed. */
  packedUint(field: number, values: number[]): this {
    return this.message(field, (w) => values.forEach((value) => w.#unsigned(value)));
  }

  /** fixed64 or sfixed64 field (8 bytes little-endian; a negative value as its two's complement). */
  fixed64(field: number, value: bigint): this {
    const v = BigInt.asUintN(64, value);
    this.#tag(field, WIRE_FIXED64);
    this.#ensure(8);
    const lo = Number(v & 0xffffffffn), hi = Number(v >> 32n);
    for (let i = 0; i < 4; i++) {
      this.#buf[this.#len + i] = (lo >>> (8 * i)) & 0xff;
      this.#buf[this.#len + 4 + i] = (hi >>> (8 * i)) & 0xff;
    }
    this.#len += 8;
    return this;
  }

  /** double field (little-endian IEEE 754). */
  double(field: number, value: number): this {
    this.#tag(field, WIRE_FIXED64);
    this.#ensure(8);
    float64[0] = value;
    for (let i = 0; i < 8; i++) this.#buf[this.#len + i] = float64Bytes[LITTLE_ENDIAN ? i : 7 - i];
    this.#len += 8;
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.#tag(field, WIRE_LENGTH);
    this.#varint(value.length);
    this.#ensure(value.length);
    this.#buf.set(value, this.#len);
    this.#len += value.length;
    return this;
  }

  string(field: number, value: string): this {
    let encoded = encodedStrings.get(value);
    if (encoded === undefined) {
      encoded = utf8.encode(value);
      if (encodedStrings.size < MAX_CACHED_STRINGS) encodedStrings.set(value, encoded);
    }
    return this.bytes(field, encoded);
  }

  /** Nested message field, written by `write` into a writer of its own. */
  message(field: number, write: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    write(inner);
    return this.bytes(field, inner.finish());
  }

  /** The bytes written so far (a view, valid until the next write). */
  finish(): Uint8Array {
    return this.#buf.subarray(0, this.#len);
  }
}
