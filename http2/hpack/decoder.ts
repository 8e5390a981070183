/**
 * @module
 * HPACK decoder (RFC 7541) for responses: keeps the dynamic table and reads `:status` and
 * `content-length` from bytes. A decoding error fails the connection; a malformed field (RFC 9113 8.1.1,
 * 8.2) only its stream, so the block is decoded to its end first.
 */
import {
  connectionSpecific,
  contentLengthValue,
  NAME_CONTENT_LENGTH,
  NAME_STATUS,
  nameValid,
  sameBytes,
  statusValue,
  valueValid,
} from "./field_rules.ts";
import { huffmanDecodeCached } from "./huffman.ts";
import {
  STATIC_BYTES,
  STATIC_CONTENT_LENGTH,
  STATIC_COUNT,
  STATIC_NAME_LEN,
  STATIC_NAME_OFF,
  STATIC_STATUS_FIRST,
  STATIC_STATUS_LAST,
  STATIC_TRANSFER_ENCODING,
  STATIC_VALUE_LEN,
} from "./static.ts";
import { DynamicTable } from "./table.ts";

const HPACK_OK = 0;
export const HPACK_BAD_INDEX = -1;
export const HPACK_BAD_HUFFMAN = -2;
export const HPACK_TABLE_SIZE = -3;
export const HPACK_TOO_LARGE = -4;
export const HPACK_TRUNCATED = -5;
export const HPACK_BAD_STATUS = -6;
/** A malformed field (RFC 9113 8.2): count it as an h2 protocol error. */
export const HPACK_BAD_FIELD = -7;

const ERROR_NAMES = [
  "ok",
  "bad index",
  "bad Huffman string",
  "table size update refused",
  "header list or integer too large",
  "header block truncated",
  "bad :status",
  "malformed field",
];

export function hpackErrorName(code: number): string {
  return ERROR_NAMES[-code] ?? "unknown";
}

const MAX_INTEGER = 0x7fffffff;
/** A field's (and its table entry's) malformed parts. */
const MARK_NAME = 1;
const MARK_VALUE = 2;

/** Huffman output for every decoder of this isolate; grown, never shrunk. */
let scratch = new Uint8Array(4096);

function latin1(buf: Uint8Array, off: number, len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(buf[off + i]);
  return s;
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

export class HpackDecoder {
  private readonly table: DynamicTable;
  private readonly maxHeaderListBytes: number;
  private pos = 0;
  // Where the current field's name and value bytes lie: set by `nameAt`, `indexed` and `readString`.
  private nBuf: Uint8Array = STATIC_BYTES;
  private nOff = 0;
  private nLen = 0;
  private sBuf: Uint8Array = STATIC_BYTES;
  private sOff = 0;
  private sLen = 0;
  /** 0 when the name is a literal or dynamic. */
  private nStatic = 0;
  private marks = 0;
  private bad = 0;
  private pseudo = false;
  private status = 0;
  private regularSeen = false;
  private listBytes = 0;
  private clBytes = -1;
  private clInvalid = false;

  constructor(maxTableBytes = 4096, maxHeaderListBytes = 65536) {
    this.table = new DynamicTable(maxTableBytes);
    this.maxHeaderListBytes = maxHeaderListBytes;
  }

  /** -1 when absent or invalid. */
  get contentLength(): number {
    return this.clInvalid ? -1 : this.clBytes;
  }

  /** A pseudo-header other than `:status` (malformed in a response). */
  get otherPseudo(): boolean {
    return this.pseudo;
  }

  /** By RFC 7541 4.1 (never above the advertised maximum). */
  get tableSizeBytes(): number {
    return this.table.sizeBytes;
  }

  /**
   * Decodes one header block, updating the dynamic table: the :status (100..599), 0 without one (trailers),
   * or a negative HPACK_* code (`HPACK_BAD_FIELD`, `HPACK_BAD_STATUS` once the block is decoded).
   */
  decodeStatus(
    block: Uint8Array,
    start: number,
    end: number,
    onField?: ((name: string, value: string) => void) | FieldBytesSink,
  ): number {
    this.status = 0;
    this.bad = 0;
    this.pseudo = false;
    this.regularSeen = false;
    this.listBytes = 0;
    this.clBytes = -1;
    this.clInvalid = false;
    // Decoded strings of one field never exceed the block's bits / 5 (the shortest code), nor the bound.
    const need = Math.ceil(Math.min(end - start, 2 * this.maxHeaderListBytes + 16) * 8 / 5) + 8;
    if (scratch.length < need) scratch = new Uint8Array(need);
    this.pos = start;
    let fields = 0;
    while (this.pos < end) {
      const b = block[this.pos];
      let r: number;
      if (b & 0x80) r = this.indexed(block, end);
      else if (b & 0x40) r = this.literal(block, end, 0x3f);
      else if (b & 0x20) {
        if (fields > 0) return HPACK_TABLE_SIZE;
        r = this.readInt(block, end, 0x1f);
        if (r < 0) return r;
        if (r > this.table.capacityBytes) return HPACK_TABLE_SIZE;
        this.table.setMaxSize(r);
        continue;
      } else r = this.literal(block, end, 0x0f);
      if (r < 0) return r;
      fields++;
      r = this.field();
      if (r < 0) return r;
      if (typeof onField === "function") {
        onField(latin1(this.nBuf, this.nOff, this.nLen), latin1(this.sBuf, this.sOff, this.sLen));
      } else if (onField !== undefined) {
        onField.fieldBytes(this.nBuf, this.nOff, this.nLen, this.sBuf, this.sOff, this.sLen);
      }
      // Last: adding may evict (and move) the table entry the name was read from.
      if (b & 0x40 && !(b & 0x80)) {
        this.table.add(this.nBuf, this.nOff, this.nLen, this.sBuf, this.sOff, this.sLen, this.marks);
      }
    }
    return this.bad !== 0 ? this.bad : this.status;
  }

  /** An integer with an N-bit prefix (`mask` = 2^N - 1) at `pos`; the value or a negative code. */
  private readInt(block: Uint8Array, end: number, mask: number): number {
    let value = block[this.pos++] & mask;
    if (value < mask) return value;
    for (let factor = 1, octets = 0; octets < 5; factor *= 128, octets++) {
      if (this.pos >= end) return HPACK_TRUNCATED;
      const b = block[this.pos++];
      value += (b & 0x7f) * factor;
      if (value > MAX_INTEGER) return HPACK_TOO_LARGE;
      if ((b & 0x80) === 0) return value;
    }
    return HPACK_TOO_LARGE;
  }

  /** HPACK_OK or HPACK_BAD_INDEX. */
  private nameAt(index: number): number {
    if (index === 0) return HPACK_BAD_INDEX;
    if (index <= STATIC_COUNT) {
      this.nBuf = STATIC_BYTES;
      this.nOff = STATIC_NAME_OFF[index];
      this.nLen = STATIC_NAME_LEN[index];
      this.nStatic = index;
      this.marks = 0;
      return HPACK_OK;
    }
    if (index - STATIC_COUNT > this.table.count) return HPACK_BAD_INDEX;
    const slot = this.table.slot(index - STATIC_COUNT);
    this.nBuf = this.table.data;
    this.nOff = this.table.nameOffset(slot);
    this.nLen = this.table.nameLength(slot);
    this.nStatic = 0;
    this.marks = this.table.mark(slot) & MARK_NAME;
    return HPACK_OK;
  }

  private indexed(block: Uint8Array, end: number): number {
    const index = this.readInt(block, end, 0x7f);
    if (index < 0) return index;
    const r = this.nameAt(index);
    if (r < 0) return r;
    if (index <= STATIC_COUNT) {
      this.sBuf = STATIC_BYTES;
      this.sOff = STATIC_NAME_OFF[index] + STATIC_NAME_LEN[index];
      this.sLen = STATIC_VALUE_LEN[index];
    } else {
      const slot = this.table.slot(index - STATIC_COUNT);
      this.sBuf = this.table.data;
      this.sOff = this.table.valueOffset(slot);
      this.sLen = this.table.valueLength(slot);
      this.marks = this.table.mark(slot);
    }
    return HPACK_OK;
  }

  /** RFC 7541 6.2; the caller adds one with incremental indexing to the table. */
  private literal(block: Uint8Array, end: number, mask: number): number {
    const index = this.readInt(block, end, mask);
    if (index < 0) return index;
    let r: number;
    if (index !== 0) r = this.nameAt(index);
    else {
      r = this.readString(block, end, 0);
      if (r < 0) return r;
      this.nBuf = this.sBuf;
      this.nOff = this.sOff;
      this.nLen = this.sLen;
      this.nStatic = 0;
      this.marks = nameValid(this.nBuf, this.nOff, this.nLen) ? 0 : MARK_NAME;
    }
    if (r < 0) return r;
    // A Huffman name sits at the start of the scratch buffer; the value goes after it.
    r = this.readString(block, end, this.nBuf === scratch ? this.nOff + this.nLen : 0);
    if (r < 0) return r;
    if (!valueValid(this.sBuf, this.sOff, this.sLen)) this.marks |= MARK_VALUE;
    return HPACK_OK;
  }

  /** A string literal (RFC 7541 5.2) into sBuf/sOff/sLen; Huffman output at `scratch[at..]`. */
  private readString(block: Uint8Array, end: number, at: number): number {
    if (this.pos >= end) return HPACK_TRUNCATED;
    const huffman = (block[this.pos] & 0x80) !== 0;
    const len = this.readInt(block, end, 0x7f);
    if (len < 0) return len;
    if (len > this.maxHeaderListBytes) return HPACK_TOO_LARGE;
    if (len > end - this.pos) return HPACK_TRUNCATED;
    const from = this.pos;
    this.pos += len;
    if (!huffman) {
      this.sBuf = block;
      this.sOff = from;
      this.sLen = len;
      return HPACK_OK;
    }
    const to = huffmanDecodeCached(block, from, from + len, scratch, at);
    if (to < 0) return HPACK_BAD_HUFFMAN;
    this.sBuf = scratch;
    this.sOff = at;
    this.sLen = to - at;
    return HPACK_OK;
  }

  private malformed(code: number): void {
    if (this.bad === 0) this.bad = code;
  }

  /** Accounts the field: list size (the only error here), malformed parts, order, :status, content-length. */
  private field(): number {
    this.listBytes += this.nLen + this.sLen + 32;
    if (this.listBytes > this.maxHeaderListBytes) return HPACK_TOO_LARGE;
    if (this.marks !== 0) this.malformed(HPACK_BAD_FIELD);
    const ns = this.nStatic;
    const isStatus = ns !== 0
      ? ns >= STATIC_STATUS_FIRST && ns <= STATIC_STATUS_LAST
      : sameBytes(this.nBuf, this.nOff, this.nLen, NAME_STATUS);
    if (isStatus) {
      this.readStatus();
      return HPACK_OK;
    }
    if (this.nLen > 0 && this.nBuf[this.nOff] === 58) { // ':'
      if (this.regularSeen) this.malformed(HPACK_BAD_FIELD);
      this.pseudo = true;
      return HPACK_OK;
    }
    this.regularSeen = true;
    const isLength = ns !== 0
      ? ns === STATIC_CONTENT_LENGTH
      : sameBytes(this.nBuf, this.nOff, this.nLen, NAME_CONTENT_LENGTH);
    if (isLength) this.readContentLength();
    else if (
      ns !== 0
        ? ns === STATIC_TRANSFER_ENCODING
        : connectionSpecific(this.nBuf, this.nOff, this.nLen, this.sBuf, this.sOff, this.sLen)
    ) this.malformed(HPACK_BAD_FIELD);
    return HPACK_OK;
  }

  /** One `:status`, before any regular field, of three digits (statusValue); otherwise malformed. */
  private readStatus(): void {
    const status = this.regularSeen || this.status !== 0 ? -1 : statusValue(this.sBuf, this.sOff, this.sLen);
    if (status < 0) return this.malformed(HPACK_BAD_STATUS);
    this.status = status;
  }

  /** A content-length that is not digits, or a second one with another value, makes the message malformed. */
  private readContentLength(): void {
    const n = contentLengthValue(this.sBuf, this.sOff, this.sLen);
    if (n < 0 || (this.clBytes !== -1 && this.clBytes !== n)) this.clInvalid = true;
    this.clBytes = n;
    // Such a message's length is unknown: it cannot match its DATA (RFC 9113 8.1.1).
    if (this.clInvalid) this.malformed(HPACK_BAD_FIELD);
  }
}
