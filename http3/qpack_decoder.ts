/**
 * @module
 * QPACK decoder (RFC 9204) for HTTP/3: the dynamic table kept in step by the peer's encoder stream, field
 * sections decoded against it, and the decoder stream's instructions written back. A section whose Required
 * Insert Count is not reached yet is blocked (`QPACK_BLOCKED`) until `readyStream` names it.
 */
import { FieldReader, type OnField } from "../http2/hpack/field_rules.ts";
import { writeInt } from "../http2/hpack/encoder.ts";
import { ENTRY_OVERHEAD } from "../http2/hpack/table.ts";
import { copyBytes } from "../system/copy_bytes.ts";
import {
  H3_EXCESSIVE_LOAD,
  H3_MESSAGE_ERROR,
  QPACK_DECOMPRESSION_FAILED,
  QPACK_ENCODER_STREAM_ERROR,
} from "./frames.ts";
import { QPACK_STATIC } from "./qpack_encoder.ts";

const QPACK_OK = 0;
/** Not an error: the section refers to inserts not received yet; decode it again when ready. */
export const QPACK_BLOCKED = -1;
export const QPACK_BAD_INDEX = -2;
const QPACK_BAD_HUFFMAN = -3;
/** A field section over the maximum size, or an integer past 2^31. */
export const QPACK_TOO_LARGE = -4;
const QPACK_TRUNCATED = -5;
/** A Required Insert Count or Base that RFC 9204 4.5.1 refuses. */
export const QPACK_BAD_PREFIX = -6;
export const QPACK_TOO_MANY_BLOCKED = -7;
const QPACK_BAD_STATUS = -8;
/** A malformed field (RFC 9114 4.2, 4.3): the message is malformed, H3_MESSAGE_ERROR on its stream. */
export const QPACK_BAD_FIELD = -9;
/** Encoder stream: a capacity above our SETTINGS_QPACK_MAX_TABLE_CAPACITY, or an entry above the capacity. */
export const QPACK_BAD_CAPACITY = -10;
/** Encoder stream: an index, Huffman string or integer it cannot carry. */
export const QPACK_BAD_INSTRUCTION = -11;

const ERROR_NAMES = ("ok|blocked|bad index|bad Huffman string|field section or integer too large|" +
  "field section truncated|bad Required Insert Count or Base|too many blocked streams|bad :status|" +
  "malformed field|table capacity exceeded|bad encoder instruction").split("|");

export function qpackErrorName(code: number): string {
  return ERROR_NAMES[-code] ?? "unknown";
}

/** The H3 error a QPACK_* code answers with: a bad or too large field ends its stream, else the link. */
export function qpackH3Code(code: number): number {
  if (code === QPACK_BAD_FIELD || code === QPACK_BAD_STATUS) return H3_MESSAGE_ERROR;
  if (code === QPACK_TOO_LARGE) return H3_EXCESSIVE_LOAD;
  if (code === QPACK_BAD_CAPACITY || code === QPACK_BAD_INSTRUCTION) return QPACK_ENCODER_STREAM_ERROR;
  return QPACK_DECOMPRESSION_FAILED;
}

const NO_BYTES = new Uint8Array(0);
const CODES = {
  badIndex: QPACK_BAD_INDEX,
  huffman: QPACK_BAD_HUFFMAN,
  tooLarge: QPACK_TOO_LARGE,
  truncated: QPACK_TRUNCATED,
  badStatus: QPACK_BAD_STATUS,
  badField: QPACK_BAD_FIELD,
};

export class QpackDecoder extends FieldReader {
  private readonly maxEntries: number;
  /** Inserts received on the encoder stream since the connection began. */
  insertCount = 0;
  /** Inserts the peer knows we received (acknowledged sections and increments sent). */
  private knownCount = 0;
  /** Decoder stream instructions to send: stream ids to acknowledge (>= 0) or cancel (-1 - id). */
  private pending: number[] = [];
  /** Blocked streams and the Required Insert Count each waits for. */
  private blockedIds: number[] = [];
  private blockedNeed: number[] = [];
  /** Encoder stream octets not yet a whole instruction. */
  private enc: Uint8Array = NO_BYTES;
  private encLen = 0;
  /** Huffman output of the encoder stream and the copy a duplicated entry is inserted from. */
  private encScratch: Uint8Array = NO_BYTES;

  /**
   * The maxima are what our SETTINGS advertise; the table's capacity starts at 0 (RFC 9204 3.2.3), or at
   * `initialCapacityBytes` for draft encoders that inserted without setting it first.
   */
  constructor(
    readonly maxTableCapacity = 0,
    readonly maxBlockedStreams = 0,
    maxFieldSectionBytes = 65536,
    initialCapacityBytes = 0,
  ) {
    super(QPACK_STATIC, maxTableCapacity, maxFieldSectionBytes, CODES);
    this.table.setMaxSize(Math.min(initialCapacityBytes, maxTableCapacity));
    this.maxEntries = Math.floor(maxTableCapacity / ENTRY_OVERHEAD);
  }

  get tableCapacityBytes(): number {
    return this.table.maxSizeBytes;
  }

  get blockedStreams(): number {
    return this.blockedIds.length;
  }

  /** A blocked stream whose inserts have all arrived (decode its section again), or -1. */
  readyStream(): number {
    for (let i = 0; i < this.blockedIds.length; i++) {
      if (this.blockedNeed[i] <= this.insertCount) return this.blockedIds[i];
    }
    return -1;
  }

  /** A stream reset before its section was decoded: forgotten if blocked, and the encoder told. */
  cancelStream(streamId: number): void {
    this.unblock(streamId);
    if (this.maxTableCapacity > 0) this.pending.push(-1 - streamId);
  }

  /** Reads encoder stream octets `buf[off, end)`, split anywhere: 0, or a negative QPACK_* code. */
  readEncoderStream(buf: Uint8Array, off: number, end: number): number {
    const n = end - off;
    if (this.encLen + n > this.enc.length) {
      const grown = new Uint8Array(Math.max(256, 2 * (this.encLen + n)));
      grown.set(this.enc.subarray(0, this.encLen));
      this.enc = grown;
    }
    copyBytes(this.enc, this.encLen, buf, off, n);
    this.encLen += n;
    let at = 0;
    while (at < this.encLen) {
      this.pos = at;
      const r = this.instruction(this.enc, this.encLen);
      if (r === QPACK_TRUNCATED) break;
      if (r < 0) return r;
      at = this.pos;
    }
    this.enc.copyWithin(0, at, this.encLen);
    this.encLen -= at;
    // An instruction is at most two strings of at most 4x the capacity (Huffman may grow) and integers.
    if (this.encLen > 8 * this.maxTableCapacity + 64) return QPACK_BAD_CAPACITY;
    return QPACK_OK;
  }

  get hasDecoderInstructions(): boolean {
    return this.pending.length > 0 || this.insertCount > this.knownCount;
  }

  /** Writes the pending decoder instructions at `out[at]` (room: 10 octets each plus 10); returns the end. */
  writeDecoderInstructions(out: Uint8Array, at: number): number {
    for (const p of this.pending) {
      at = p >= 0 ? writeInt(out, at, p, 7, 0x80) : writeInt(out, at, -1 - p, 6, 0x40);
    }
    this.pending.length = 0;
    if (this.insertCount > this.knownCount) {
      at = writeInt(out, at, this.insertCount - this.knownCount, 6, 0x00);
      this.knownCount = this.insertCount;
    }
    return at;
  }

  /** Decodes field section `block[start, end)` of `streamId`: its :status, 0 if none, or a QPACK_* code. */
  decodeSection(streamId: number, block: Uint8Array, start: number, end: number, onField?: OnField): number {
    this.pos = start;
    const ric = this.requiredInsertCountAt(block, end);
    if (ric < 0) return ric;
    if (this.pos >= end) return QPACK_TRUNCATED;
    const negative = (block[this.pos] & 0x80) !== 0;
    const delta = this.readInt(block, end, 0x7f);
    if (delta < 0) return delta;
    if (negative && delta + 1 > ric) return QPACK_BAD_PREFIX;
    const base = negative ? ric - delta - 1 : ric + delta;
    if (ric > this.insertCount) return this.block(streamId, ric);
    this.unblock(streamId);
    this.begin(start, end);
    while (this.pos < end) {
      let r = (block[this.pos] & 0xe0) === 0x20
        ? this.literalName(block, end, 0x08, 0x07) // 4.5.6: 001NHxxx
        : this.reference(block, end, base, ric);
      if (r < 0) return r;
      r = this.field(onField);
      if (r < 0) return r;
    }
    if (ric > 0) {
      this.pending.push(streamId);
      if (ric > this.knownCount) this.knownCount = ric;
    }
    return this.result();
  }

  /** The Required Insert Count (RFC 9204 4.5.1.1) at `pos`, or a negative code. */
  private requiredInsertCountAt(block: Uint8Array, end: number): number {
    if (this.pos >= end) return QPACK_TRUNCATED;
    const encoded = this.readInt(block, end, 0xff);
    if (encoded <= 0) return encoded;
    const fullRange = 2 * this.maxEntries;
    if (encoded > fullRange) return QPACK_BAD_PREFIX;
    const maxValue = this.insertCount + this.maxEntries;
    let ric = Math.floor(maxValue / fullRange) * fullRange + encoded - 1;
    if (ric > maxValue) {
      if (ric <= fullRange) return QPACK_BAD_PREFIX;
      ric -= fullRange;
    }
    return ric === 0 ? QPACK_BAD_PREFIX : ric;
  }

  private block(streamId: number, ric: number): number {
    const i = this.blockedIds.indexOf(streamId);
    if (i >= 0) {
      this.blockedNeed[i] = ric;
      return QPACK_BLOCKED;
    }
    if (this.blockedIds.length >= this.maxBlockedStreams) return QPACK_TOO_MANY_BLOCKED;
    this.blockedIds.push(streamId);
    this.blockedNeed.push(ric);
    return QPACK_BLOCKED;
  }

  private unblock(streamId: number): void {
    const i = this.blockedIds.indexOf(streamId);
    if (i < 0) return;
    const last = this.blockedIds.length - 1;
    this.blockedIds[i] = this.blockedIds[last];
    this.blockedNeed[i] = this.blockedNeed[last];
    this.blockedIds.length = last;
    this.blockedNeed.length = last;
  }

  /** Points the name (and value) at the entry of absolute index `abs`, if it is below `limit` and live. */
  private absolute(abs: number, limit: number, withValue: boolean): number {
    if (abs < 0 || abs >= limit || abs < this.insertCount - this.table.count) return QPACK_BAD_INDEX;
    return this.dynamicEntry(this.table.slot(this.insertCount - abs), withValue);
  }

  /** A field line that references an entry (RFC 9204 4.5.2-4.5.5), the literal's value read after it. */
  private reference(block: Uint8Array, end: number, base: number, ric: number): number {
    const b = block[this.pos], postBase = b < 0x20, indexed = b >= 0x80 || (postBase && b >= 0x10);
    const isStatic = !postBase && (b & (indexed ? 0x40 : 0x10)) !== 0;
    const index = this.readInt(block, end, postBase ? (indexed ? 0x0f : 0x07) : (indexed ? 0x3f : 0x0f));
    if (index < 0) return index;
    const abs = postBase ? base + index : base - 1 - index;
    const r = isStatic ? this.staticEntry(index, indexed) : this.absolute(abs, ric, indexed);
    return r < 0 || indexed ? r : this.value(block, end, 0);
  }

  /** One encoder stream instruction (RFC 9204 4.3) at `pos`: QPACK_OK, QPACK_TRUNCATED (wait) or an error. */
  private instruction(buf: Uint8Array, end: number): number {
    const b = buf[this.pos];
    const capacity = this.table.maxSizeBytes;
    if (this.encScratch.length === 0 && this.maxTableCapacity > 0) {
      // A name of at most the capacity, then a value of up to 4x it Huffman-decoded (8 bits per 5 at most).
      this.encScratch = new Uint8Array(8 * this.maxTableCapacity + 16);
    }
    let r: number;
    if (b & 0x80) { // Insert with name reference: 1Txxxxxx
      const index = this.readInt(buf, end, 0x3f);
      if (index < 0) return index === QPACK_TOO_LARGE ? QPACK_BAD_INSTRUCTION : index;
      r = b & 0x40
        ? this.staticEntry(index, false)
        : this.absolute(this.insertCount - 1 - index, this.insertCount, false);
      if (r === QPACK_BAD_INDEX) return QPACK_BAD_INSTRUCTION;
      r = this.readString(buf, end, 0x80, 0x7f, this.encScratch, 0, 4 * capacity);
      if (r < 0) return this.encoderError(r);
      return this.insert();
    }
    if (b & 0x40) { // Insert with literal name: 01Hxxxxx
      r = this.readString(buf, end, 0x20, 0x1f, this.encScratch, 0, 4 * capacity);
      if (r < 0) return this.encoderError(r);
      this.nameFromString();
      if (this.nLen > capacity) return QPACK_BAD_CAPACITY;
      const at = this.nBuf === this.encScratch ? this.nLen : 0;
      r = this.readString(buf, end, 0x80, 0x7f, this.encScratch, at, 4 * capacity);
      if (r < 0) return this.encoderError(r);
      return this.insert();
    }
    if (b & 0x20) { // Set dynamic table capacity: 001xxxxx
      const value = this.readInt(buf, end, 0x1f);
      if (value < 0) return value === QPACK_TOO_LARGE ? QPACK_BAD_CAPACITY : value;
      if (value > this.maxTableCapacity) return QPACK_BAD_CAPACITY;
      this.table.setMaxSize(value);
      return QPACK_OK;
    }
    const index = this.readInt(buf, end, 0x1f);
    if (index < 0) return index === QPACK_TOO_LARGE ? QPACK_BAD_INSTRUCTION : index;
    if (this.absolute(this.insertCount - 1 - index, this.insertCount, true) < 0) return QPACK_BAD_INSTRUCTION;
    // The entry may be evicted by its own copy's insertion: insert from a copy of it.
    const copy = this.encScratch;
    copyBytes(copy, 0, this.nBuf, this.nOff, this.nLen);
    copyBytes(copy, this.nLen, this.sBuf, this.sOff, this.sLen);
    this.nBuf = this.sBuf = copy;
    this.nOff = 0;
    this.sOff = this.nLen;
    return this.insert();
  }

  private encoderError(r: number): number {
    if (r === QPACK_TRUNCATED) return r;
    return r === QPACK_TOO_LARGE ? QPACK_BAD_CAPACITY : QPACK_BAD_INSTRUCTION;
  }

  /** Inserts the current name and value; an entry larger than the capacity is an encoder stream error. */
  private insert(): number {
    if (this.nLen + this.sLen + ENTRY_OVERHEAD > this.table.maxSizeBytes) return QPACK_BAD_CAPACITY;
    this.checkValue();
    this.table.add(this.nBuf, this.nOff, this.nLen, this.sBuf, this.sOff, this.sLen, this.marks);
    this.insertCount++;
    return QPACK_OK;
  }
}
