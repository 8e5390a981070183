/**
 * @module
 * The HPACK dynamic table of one decoder (RFC 7541 2.3.2, 4): entries' bytes in one buffer of at most
 * twice the maximum size, their offsets and lengths in one integer ring (not an array per field: a
 * crowd of connections holds a table each). Empty until the first entry; grows by doubling to a bound.
 */
import { copyBytes } from "../../system/copy_bytes.ts";

/** The octets RFC 7541 4.1 adds to each entry's name and value lengths. */
export const ENTRY_OVERHEAD = 32;
/** The byte buffer's first size, when the first entry comes. */
const FIRST_DATA_BYTES = 256;
/** The ring's first size in entries, when the first entry comes. */
const FIRST_RING_SLOTS = 8;
/** Integers per ring slot: the entry's offset in `data`, its name's length, its value's, its marks. */
const SLOT_INTS = 4;
const NO_BYTES = new Uint8Array(0);
const NO_INTS = new Int32Array(0);

export class DynamicTable {
  /** Entry bytes: each entry's name at `offsets[slot]`, its value right after it. */
  data: Uint8Array = NO_BYTES;
  /**
   * Per ring slot, SLOT_INTS integers: offset, name length, value length and what the decoder found
   * malformed in the entry when it was added (its `MARK_*` bits).
   */
  private ring: Int32Array = NO_INTS;
  /** The ring's slots now (it grows up to `slots`). */
  private ringSlots = 0;
  /** A name of this table kept aside while the table's bytes move under it (made on first need). */
  private nameCopy: Uint8Array = NO_BYTES;
  /** The most entries that fit in the largest maximum. */
  private readonly slots: number;
  /** Slot of the newest entry. */
  private newest = -1;
  /** Live entries. */
  count = 0;
  /** The table's size by RFC 7541 4.1. */
  sizeBytes = 0;
  /** The current maximum size (a size update may lower it below `capacityBytes`). */
  maxSizeBytes: number;
  /** Where the next entry's bytes go in `data`. */
  private tail = 0;

  /** `capacityBytes` is the largest maximum the peer may choose (our SETTINGS_HEADER_TABLE_SIZE). */
  constructor(readonly capacityBytes: number) {
    this.maxSizeBytes = capacityBytes;
    this.slots = Math.floor(capacityBytes / ENTRY_OVERHEAD) + 1;
  }

  /** The ring slot of dynamic index `i` (1 = newest); the caller checks 1 <= i <= count. */
  slot(i: number): number {
    const s = this.newest - i + 1;
    return s < 0 ? s + this.ringSlots : s;
  }
  nameOffset(slot: number): number {
    return this.ring[slot * SLOT_INTS];
  }
  nameLength(slot: number): number {
    return this.ring[slot * SLOT_INTS + 1];
  }
  valueOffset(slot: number): number {
    return this.ring[slot * SLOT_INTS] + this.ring[slot * SLOT_INTS + 1];
  }
  valueLength(slot: number): number {
    return this.ring[slot * SLOT_INTS + 2];
  }
  /** The marks the entry was added with. */
  mark(slot: number): number {
    return this.ring[slot * SLOT_INTS + 3];
  }

  /** Applies a dynamic table size update; the caller checks it against `capacityBytes`. */
  setMaxSize(maxSizeBytes: number): void {
    this.maxSizeBytes = maxSizeBytes;
    while (this.sizeBytes > maxSizeBytes) this.evictOldest();
  }

  /**
   * Inserts a field as the newest entry, evicting as needed; a field larger than the maximum empties the
   * table (RFC 7541 4.4). The name may be an entry of this very table, even one evicted to make room.
   * `mark`: the caller's note on the field (malformed name or value), kept for later references to it.
   */
  add(
    nameBuf: Uint8Array,
    nameOff: number,
    nameLen: number,
    valueBuf: Uint8Array,
    valueOff: number,
    valueLen: number,
    mark: number,
  ): void {
    const entryBytes = nameLen + valueLen + ENTRY_OVERHEAD;
    if (entryBytes > this.maxSizeBytes) {
      while (this.count > 0) this.evictOldest();
      return;
    }
    while (this.sizeBytes + entryBytes > this.maxSizeBytes) this.evictOldest();
    const bytes = nameLen + valueLen;
    if (this.count === this.ringSlots) this.growRing();
    if (this.tail + bytes > this.data.length) {
      const full = 2 * this.capacityBytes;
      const need = this.liveBytes() + bytes;
      // Grown only when the live entries and this one would fill over half of it: a server that indexes a
      // field with every response (`date`) reaches the end again and again with little live, and doubling
      // each time grew every connection's buffer to twice the maximum size (8 KiB) within minutes.
      if (this.data.length < full && 2 * need > this.data.length) {
        // Grown into a new buffer: a name of the old one stays where it is.
        this.compact(
          new Uint8Array(Math.min(full, Math.max(FIRST_DATA_BYTES, 2 * this.data.length, 2 * need))),
        );
      } else {
        if (nameBuf === this.data) { // compaction in place may move or overwrite it
          if (this.nameCopy.length < nameLen) this.nameCopy = new Uint8Array(this.capacityBytes);
          copyBytes(this.nameCopy, 0, this.data, nameOff, nameLen);
          nameBuf = this.nameCopy;
          nameOff = 0;
        }
        this.compact(this.data);
      }
    }
    const at = this.tail;
    // Past `tail`, so never onto its source. No view per call: servers add a field such as `date` with
    // every response, and a `subarray` each was most of the HTTP/2 client's garbage.
    copyBytes(this.data, copyBytes(this.data, at, nameBuf, nameOff, nameLen), valueBuf, valueOff, valueLen);
    this.tail = at + bytes;
    this.newest = this.newest + 1 === this.ringSlots ? 0 : this.newest + 1;
    const r = this.newest * SLOT_INTS;
    this.ring[r] = at;
    this.ring[r + 1] = nameLen;
    this.ring[r + 2] = valueLen;
    this.ring[r + 3] = mark;
    this.count++;
    this.sizeBytes += entryBytes;
  }

  private evictOldest(): void {
    const r = this.slot(this.count) * SLOT_INTS;
    this.sizeBytes -= this.ring[r + 1] + this.ring[r + 2] + ENTRY_OVERHEAD;
    this.count--;
    if (this.count === 0) this.tail = 0;
  }

  /**
   * The ring full (or not made yet): twice the slots, up to the most entries that fit (which the
   * evictions before a full ring's add keep it under), the live entries laid oldest first from slot 0.
   */
  private growRing(): void {
    const size = Math.min(this.slots, Math.max(FIRST_RING_SLOTS, 2 * this.ringSlots));
    const grown = new Int32Array(size * SLOT_INTS);
    for (let i = this.count; i >= 1; i--) {
      const from = this.slot(i) * SLOT_INTS;
      const to = (this.count - i) * SLOT_INTS;
      for (let k = 0; k < SLOT_INTS; k++) grown[to + k] = this.ring[from + k];
    }
    this.ring = grown;
    this.ringSlots = size;
    this.newest = this.count - 1;
  }

  /** The name and value bytes of the live entries. */
  private liveBytes(): number {
    return this.sizeBytes - this.count * ENTRY_OVERHEAD;
  }

  /**
   * Moves the live entries (oldest first, at rising offsets) to the start of `into`, which becomes `data`.
   */
  private compact(into: Uint8Array): void {
    let to = 0;
    for (let i = this.count; i >= 1; i--) {
      const r = this.slot(i) * SLOT_INTS;
      const from = this.ring[r];
      const len = this.ring[r + 1] + this.ring[r + 2];
      copyBytes(into, to, this.data, from, len);
      this.ring[r] = to;
      to += len;
    }
    this.data = into;
    this.tail = to;
  }
}
