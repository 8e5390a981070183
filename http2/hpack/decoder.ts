/**
 * @module
 * HPACK decoder (RFC 7541) for responses. A decoding error fails the connection; a malformed field
 * (RFC 9113 8.1.1, 8.2) only its stream, so the block is decoded to its end first.
 */
import { FieldReader, type OnField } from "./field_rules.ts";
import { HPACK_STATIC } from "./static.ts";

export const HPACK_BAD_INDEX = -1;
export const HPACK_BAD_HUFFMAN = -2;
export const HPACK_TABLE_SIZE = -3;
export const HPACK_TOO_LARGE = -4;
export const HPACK_TRUNCATED = -5;
export const HPACK_BAD_STATUS = -6;
/** A malformed field (RFC 9113 8.2): count it as an h2 protocol error. */
export const HPACK_BAD_FIELD = -7;

const ERROR_NAMES =
  ("ok|bad index|bad Huffman string|table size update refused|header list or integer too large|" +
    "header block truncated|bad :status|malformed field").split("|");

export function hpackErrorName(code: number): string {
  return ERROR_NAMES[-code] ?? "unknown";
}

const CODES = {
  badIndex: HPACK_BAD_INDEX,
  huffman: HPACK_BAD_HUFFMAN,
  tooLarge: HPACK_TOO_LARGE,
  truncated: HPACK_TRUNCATED,
  badStatus: HPACK_BAD_STATUS,
  badField: HPACK_BAD_FIELD,
};
const STATIC_END = HPACK_STATIC.end;

export class HpackDecoder extends FieldReader {
  constructor(maxTableBytes = 4096, maxHeaderListBytes = 65536) {
    super(HPACK_STATIC, maxTableBytes, maxHeaderListBytes, CODES);
  }

  /**
   * Decodes one header block, updating the dynamic table: the :status (100..599), 0 without one (trailers),
   * or a negative HPACK_* code (`HPACK_BAD_FIELD`, `HPACK_BAD_STATUS` once the block is decoded).
   */
  decodeStatus(block: Uint8Array, start: number, end: number, onField?: OnField): number {
    this.begin(start, end);
    this.pos = start;
    let fields = 0;
    while (this.pos < end) {
      const b = block[this.pos];
      let r: number;
      if (b & 0x80) r = this.entry(this.readInt(block, end, 0x7f), true);
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
      r = this.field(onField);
      if (r < 0) return r;
      // Last: adding may evict (and move) the table entry the name was read from.
      if (b & 0x40 && !(b & 0x80)) {
        this.table.add(this.nBuf, this.nOff, this.nLen, this.sBuf, this.sOff, this.sLen, this.marks);
      }
    }
    return this.result();
  }

  /** Points the name (and value when `withValue`) at `index` (a negative code passes through). */
  private entry(index: number, withValue: boolean): number {
    if (index < STATIC_END) return index < 0 ? index : this.staticEntry(index, withValue);
    const dynamic = index - STATIC_END + 1;
    if (dynamic > this.table.count) return HPACK_BAD_INDEX;
    return this.dynamicEntry(this.table.slot(dynamic), withValue);
  }

  /** RFC 7541 6.2; the caller adds one with incremental indexing to the table. */
  private literal(block: Uint8Array, end: number, mask: number): number {
    const index = this.readInt(block, end, mask);
    if (index === 0) return this.literalName(block, end, 0x80, 0x7f);
    const r = this.entry(index, false);
    return r < 0 ? r : this.value(block, end, 0);
  }
}
