/**
 * @module
 * The field rules of RFC 9113 8.1-8.2 and RFC 9114 4.2-4.3 on bytes, applied by `FieldReader` for both
 * decoders (HPACK's and QPACK's). Malformed is a stream error. HOT PATH: no object or string per field.
 */
import { DynamicTable } from "./table.ts";
import { huffmanDecodeCached } from "./huffman.ts";
import {
  CONNECTION_NAMES,
  KIND_BYTES,
  KIND_CONNECTION,
  KIND_LENGTH,
  KIND_STATUS,
  type StaticTable,
} from "./static.ts";
import { bytesOf, decimalAt, latin1, sameBytes, sameLowerAscii } from "../../http1/chars.ts";

const NAME_STATUS = bytesOf(":status");
const NAME_CONTENT_LENGTH = bytesOf("content-length");
const NAME_TE = bytesOf("te");
const VALUE_TRAILERS = bytesOf("trailers");
const CONNECTION_NAME_BYTES = [...CONNECTION_NAMES].map(bytesOf);

/** Non-empty, 0x21-0x7e but upper case, a colon only first (RFC 9113 8.2.1). */
function nameValid(buf: Uint8Array, off: number, len: number): boolean {
  if (len === 0) return false;
  for (let i = 0; i < len; i++) {
    const c = buf[off + i];
    if (c < 0x21 || c > 0x7e || (c >= 0x41 && c <= 0x5a) || (c === 0x3a && i > 0)) return false;
  }
  return true;
}

/** A value has no NUL, CR or LF, and no SP or HTAB at either end (RFC 9113 8.2.1); other octets pass. */
function valueValid(buf: Uint8Array, off: number, len: number): boolean {
  if (len === 0) return true;
  const first = buf[off], last = buf[off + len - 1];
  if (first === 32 || first === 9 || last === 32 || last === 9) return false;
  for (let i = off; i < off + len; i++) {
    const c = buf[i];
    if (c === 0 || c === 10 || c === 13) return false;
  }
  return true;
}

/** Whether a regular field is connection-specific (RFC 9113 8.2.2): CONNECTION_NAMES, `te` but `trailers`. */
function connectionSpecific(
  n: Uint8Array,
  nOff: number,
  nLen: number,
  v: Uint8Array,
  vOff: number,
  vLen: number,
): boolean {
  if (sameBytes(n, nOff, nLen, NAME_TE)) return !sameLowerAscii(v, vOff, vLen, VALUE_TRAILERS);
  for (let i = 0; i < CONNECTION_NAME_BYTES.length; i++) {
    if (sameBytes(n, nOff, nLen, CONNECTION_NAME_BYTES[i])) return true;
  }
  return false;
}

/** Three digits but 000; 600-999 and 001-099 read as errors, as over HTTP/1.1 (RFC 9110 15); else -1. */
function statusValue(v: Uint8Array, off: number, len: number): number {
  const status = len === 3 ? decimalAt(v, off, off + 3) : -1;
  return status === 0 ? -1 : status;
}

/** Takes each field as bytes where they lie (valid during the call): no string per field. */
export interface FieldBytesSink {
  fieldBytes(
    name: Uint8Array,
    nameOff: number,
    nameLen: number,
    value: Uint8Array,
    valueOff: number,
    valueLen: number,
  ): void;
}

export type OnField = ((name: string, value: string) => void) | FieldBytesSink;

/** The codes a decoder answers with (each protocol numbers its own). */
interface FieldCodes {
  readonly badIndex: number;
  readonly huffman: number;
  readonly tooLarge: number;
  readonly truncated: number;
  readonly badStatus: number;
  readonly badField: number;
}

const MAX_INTEGER = 0x7fffffff;
/** A field's (and its table entry's) malformed parts. */
const MARK_NAME = 1;
const MARK_VALUE = 2;

/** Huffman output for every decoder of this isolate; grown, never shrunk. */
let scratch = new Uint8Array(4096);

/** What the HPACK and QPACK decoders share: integers and strings read at `pos`, tables and a list's rules. */
export abstract class FieldReader {
  protected readonly table: DynamicTable;
  protected pos = 0;
  protected nBuf: Uint8Array;
  protected nOff = 0;
  protected nLen = 0;
  protected sBuf: Uint8Array;
  protected sOff = 0;
  protected sLen = 0;
  /** The name's KIND_*: KIND_BYTES when it is a literal or dynamic. */
  private nKind = KIND_BYTES;
  protected marks = 0;
  /** The isolate's Huffman output buffer as `begin` left it. */
  protected scratch = scratch;
  private bad = 0;
  private pseudo = false;
  private status = 0;
  private regularSeen = false;
  private listBytes = 0;
  private clBytes = -1;
  private clInvalid = false;

  constructor(
    private readonly statics: StaticTable,
    capacityBytes: number,
    protected readonly maxListBytes: number,
    private readonly codes: FieldCodes,
  ) {
    this.table = new DynamicTable(capacityBytes);
    this.nBuf = this.sBuf = statics.bytes;
  }

  /** content-length of the last decoded list, or -1 when absent or invalid. */
  get contentLength(): number {
    return this.clInvalid ? -1 : this.clBytes;
  }

  /** The last decoded list had a pseudo-header other than `:status` (malformed in a response). */
  get otherPseudo(): boolean {
    return this.pseudo;
  }

  /** The dynamic table's size by RFC 7541 4.1 and RFC 9204 3.2.1. */
  get tableSizeBytes(): number {
    return this.table.sizeBytes;
  }

  protected begin(start: number, end: number): void {
    this.status = 0;
    this.bad = 0;
    this.pseudo = false;
    this.regularSeen = false;
    this.listBytes = 0;
    this.clBytes = -1;
    this.clInvalid = false;
    // Decoded strings of one field never exceed the block's bits / 5 (the shortest code), nor the bound.
    const need = Math.ceil(Math.min(end - start, 2 * this.maxListBytes + 16) * 8 / 5) + 8;
    if (scratch.length < need) scratch = new Uint8Array(need);
    this.scratch = scratch;
  }

  /** The :status, 0 without one, or the first malformed field's code. */
  protected result(): number {
    return this.bad !== 0 ? this.bad : this.status;
  }

  /** An integer with an N-bit prefix (`mask` = 2^N - 1) at `pos`; the value or a negative code. */
  protected readInt(block: Uint8Array, end: number, mask: number): number {
    let value = block[this.pos++] & mask;
    if (value < mask) return value;
    for (let factor = 1, octets = 0; octets < 5; factor *= 128, octets++) {
      if (this.pos >= end) return this.codes.truncated;
      const b = block[this.pos++];
      value += (b & 0x7f) * factor;
      if (value > MAX_INTEGER) return this.codes.tooLarge;
      if ((b & 0x80) === 0) return value;
    }
    return this.codes.tooLarge;
  }

  /** A string literal (H bit `hBit`, length prefix `mask`) at `pos`; Huffman output to `out[at..]`. */
  protected readString(
    block: Uint8Array,
    end: number,
    hBit: number,
    mask: number,
    out: Uint8Array,
    at: number,
    limit: number,
  ): number {
    if (this.pos >= end) return this.codes.truncated;
    const huffman = (block[this.pos] & hBit) !== 0;
    const len = this.readInt(block, end, mask);
    if (len < 0) return len;
    if (len > limit) return this.codes.tooLarge;
    if (len > end - this.pos) return this.codes.truncated;
    const from = this.pos;
    this.pos += len;
    if (!huffman) {
      this.sBuf = block;
      this.sOff = from;
      this.sLen = len;
      return 0;
    }
    const to = huffmanDecodeCached(block, from, from + len, out, at);
    if (to < 0) return this.codes.huffman;
    this.sBuf = out;
    this.sOff = at;
    this.sLen = to - at;
    return 0;
  }

  protected nameFromString(): void {
    this.nBuf = this.sBuf;
    this.nOff = this.sOff;
    this.nLen = this.sLen;
    this.nKind = KIND_BYTES;
    this.marks = nameValid(this.nBuf, this.nOff, this.nLen) ? 0 : MARK_NAME;
  }

  /** A literal name (H bit `hBit`, length prefix `mask`), then its value. */
  protected literalName(block: Uint8Array, end: number, hBit: number, mask: number): number {
    const r = this.readString(block, end, hBit, mask, this.scratch, 0, this.maxListBytes);
    if (r < 0) return r;
    this.nameFromString();
    // A Huffman name sits at the start of the scratch buffer; the value goes after it.
    return this.value(block, end, this.nBuf === this.scratch ? this.nLen : 0);
  }

  /** A field's value string (H bit 0x80, 7-bit length), Huffman output at `scratch[at..]`. */
  protected value(block: Uint8Array, end: number, at: number): number {
    const r = this.readString(block, end, 0x80, 0x7f, this.scratch, at, this.maxListBytes);
    if (r < 0) return r;
    this.checkValue();
    return 0;
  }

  protected checkValue(): void {
    if (!valueValid(this.sBuf, this.sOff, this.sLen)) this.marks |= MARK_VALUE;
  }

  /** Points the name (and value when `withValue`) at static index `index`, if the table has it. */
  protected staticEntry(index: number, withValue: boolean): number {
    const t = this.statics;
    if (index < t.first || index >= t.end) return this.codes.badIndex;
    this.nBuf = t.bytes;
    this.nOff = t.nameOff[index];
    this.nLen = t.nameLen[index];
    this.nKind = t.kind[index];
    this.marks = 0;
    if (withValue) {
      this.sBuf = t.bytes;
      this.sOff = this.nOff + this.nLen;
      this.sLen = t.valueLen[index];
    }
    return 0;
  }

  /** Points the name (and value when `withValue`) at the dynamic table's `slot`. */
  protected dynamicEntry(slot: number, withValue: boolean): number {
    const t = this.table;
    this.nBuf = t.data;
    this.nOff = t.nameOffset(slot);
    this.nLen = t.nameLength(slot);
    this.nKind = KIND_BYTES;
    this.marks = t.mark(slot) & MARK_NAME;
    if (withValue) {
      this.sBuf = t.data;
      this.sOff = t.valueOffset(slot);
      this.sLen = t.valueLength(slot);
      this.marks = t.mark(slot);
    }
    return 0;
  }

  private malformed(code: number): void {
    if (this.bad === 0) this.bad = code;
  }

  /** Accounts the current field (the list's size is the only error returned), then hands it to `onField`. */
  protected field(onField: OnField | undefined): number {
    this.listBytes += this.nLen + this.sLen + 32;
    if (this.listBytes > this.maxListBytes) return this.codes.tooLarge;
    if (this.marks !== 0) this.malformed(this.codes.badField);
    const kind = this.nKind;
    const n = this.nBuf,
      nOff = this.nOff,
      nLen = this.nLen,
      v = this.sBuf,
      vOff = this.sOff,
      vLen = this.sLen;
    if (kind === KIND_BYTES ? sameBytes(n, nOff, nLen, NAME_STATUS) : kind === KIND_STATUS) {
      const status = this.regularSeen || this.status !== 0 ? -1 : statusValue(v, vOff, vLen);
      if (status < 0) this.malformed(this.codes.badStatus);
      else this.status = status;
    } else if (nLen > 0 && n[nOff] === 58) { // ':'
      if (this.regularSeen) this.malformed(this.codes.badField);
      this.pseudo = true;
    } else {
      this.regularSeen = true;
      if (kind === KIND_BYTES ? sameBytes(n, nOff, nLen, NAME_CONTENT_LENGTH) : kind === KIND_LENGTH) {
        // 1 to 15 digits (below 10^15).
        const length = vLen > 15 ? -1 : decimalAt(v, vOff, vOff + vLen);
        if (length < 0 || (this.clBytes !== -1 && this.clBytes !== length)) this.clInvalid = true;
        this.clBytes = length;
        // Such a message's length is unknown: it cannot match its DATA (RFC 9113 8.1.1).
        if (this.clInvalid) this.malformed(this.codes.badField);
      } else if (
        kind === KIND_BYTES ? connectionSpecific(n, nOff, nLen, v, vOff, vLen) : kind === KIND_CONNECTION
      ) this.malformed(this.codes.badField);
    }
    if (typeof onField === "function") onField(latin1(n, nOff, nLen), latin1(v, vOff, vLen));
    else if (onField !== undefined) onField.fieldBytes(n, nOff, nLen, v, vOff, vLen);
    return 0;
  }
}
