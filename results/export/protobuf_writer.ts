/**
 * @module
 * The protobuf fields remote write and OTLP need, by field number, on protobufjs's writer (gRPC's too).
 */
import protobuf from "protobufjs";

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;

/** A safe integer (non-negative when `unsigned`), else a RangeError: a wrong varint is never written. */
function safe(value: number, unsigned: boolean): number {
  if (!Number.isSafeInteger(value) || (unsigned && value < 0)) {
    throw new RangeError(`not a safe ${unsigned ? "unsigned " : ""}integer: ${value}`);
  }
  return value;
}

/** Appends protobuf fields; `finish` returns the bytes. */
export class ProtoWriter {
  readonly #w = protobuf.Writer.create();

  #tag(field: number, wire: number): protobuf.Writer {
    return this.#w.uint32(field * 8 + wire);
  }

  /** uint32/uint64/int64/enum field of a non-negative value. */
  uint(field: number, value: number): this {
    this.#tag(field, WIRE_VARINT).uint64(safe(value, true));
    return this;
  }

  /** sint32/sint64 field (zig-zag). */
  sint(field: number, value: number): this {
    this.#tag(field, WIRE_VARINT).sint64(safe(value, false));
    return this;
  }

  /** repeated sint64 field, packed. */
  packedSint(field: number, values: number[]): this {
    return this.message(field, () => values.forEach((v) => this.#w.sint64(safe(v, false))));
  }

  /** repeated uint64 field of non-negative values, packed. */
  packedUint(field: number, values: number[]): this {
    return this.message(field, () => values.forEach((v) => this.#w.uint64(safe(v, true))));
  }

  /** fixed64 or sfixed64 field (a negative value as its two's complement). */
  fixed64(field: number, value: bigint): this {
    const v = BigInt.asUintN(64, value);
    this.#tag(field, WIRE_FIXED64).fixed64({ low: Number(v & 0xffffffffn), high: Number(v >> 32n) } as never);
    return this;
  }

  /** double field (little-endian IEEE 754). */
  double(field: number, value: number): this {
    this.#tag(field, WIRE_FIXED64).double(value);
    return this;
  }

  string(field: number, value: string): this {
    this.#tag(field, WIRE_LENGTH).string(value);
    return this;
  }

  /** Nested message field, written by `write` and prefixed with its length. */
  message(field: number, write: (w: ProtoWriter) => void): this {
    this.#tag(field, WIRE_LENGTH).fork();
    write(this);
    this.#w.ldelim();
    return this;
  }

  finish(): Uint8Array {
    return this.#w.finish();
  }
}
