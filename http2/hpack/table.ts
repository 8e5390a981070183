/**
 * @module
 * The HPACK dynamic table of one decoder (RFC 7541 2.3.2, 4): entries' bytes in one buffer, offsets in
 * one integer ring (a crowd of connections holds a table each). Grows by doubling to a bound.
 */
import { copyBytes } from "../../system/copy_bytes.ts";

/** The octets RFC 7541 4.1 adds to each entry's name and value lengths. */
export const ENTRY_OVERHEAD = 32;
const FIRST_DATA_BYTES = 256;
const FIRST_RING_SLOTS = 8;
/** The entry's offset in `data`, its name's length, its value's, its marks. */
const SLOT_INTS = 4;
const NO_BYTES = new Uint8Array(0);
const NO_INTS = new Int32Array(0);

export class DynamicTable {
  /** Each entry's name at `offsets[slot]`, its value right after it. */
  data: Uint8Array = NO_BYTES;
  /** SLOT_INTS per slot: offset, name and value lengths, and the entry's `MARK_*` bits. */
  private ring: Int32Array = NO_INTS;
  private ringSlots = 0;
  /** A name of this table kept aside while its bytes move (made on first need). */
  private nameCopy: Uint8Array = NO_BYTES;
  /** The most entries that fit in the largest maximum. */
  private readonly slots: number;
  private newest = -1;
  count = 0;
  sizeBytes = 0;
  /** A size update may lower it below `capacityBytes`. */
  maxSizeBytes: number;
  private tail = 0;

  /** `capacityBytes` is the largest maximum the peer may choose (our SETTINGS_HEADER_TABLE_SIZE). */
  constructor(readonly capacityBytes: number) {
    this.maxSizeBytes = capacityBytes;
    this.slots = Math.floor(capacityBytes / ENTRY_OVERHEAD) + 1;
  }

  /** Dynamic index `i` (1 = newest); the caller checks 1 <= i <= count. */
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
  mark(slot: number): number {
    return this.ring[slot * SLOT_INTS + 3];
  }

  /** Applies a dynamic table size update; the caller checks it against `capacityBytes`. */
  setMaxSize(maxSizeBytes: number): void {
    this.maxSizeBytes = maxSizeBytes;
    while (this.sizeBytes > maxSizeBytes) this.evictOldest();
  }

  /** Inserts the newest entry, evicting as needed (RFC 7541 4.4); the name may be an entry of this table. */
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
      // Grown only when live entries and this one fill over half: `date` indexed per response just wraps.
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
    // Past `tail`, so never onto its source; no view per call.
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

  /** Doubles the ring up to the most entries that fit, live entries laid oldest first from slot 0. */
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

  private liveBytes(): number {
    return this.sizeBytes - this.count * ENTRY_OVERHEAD;
  }

  /** Moves the live entries, oldest first, to the start of `into`, which becomes `data`. */
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
