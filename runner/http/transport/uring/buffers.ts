/**
 * @module
 * The memory one io_uring ring shares with the kernel for data, all in `mmap`s (a V8 buffer may move).
 */
import {
  BUFFER_GROUP,
  errnoOf,
  mapAnonymous,
  type Mapping,
  Mappings,
  PAGE_BYTES,
  RECV_BUFFER_BYTES,
  REGISTER_PBUF_RING,
  SEND_SLOT_BYTES,
  SLOTS_PER_CHUNK,
  SMALL_SEND_SLOT_BYTES,
  SYS_IO_URING_REGISTER,
} from "./ffi.ts";
import type { Libc } from "../epoll/ffi.ts";

/** One ring's receive buffers and send slots; unmapped by `close` (the ring's close). */
export class UringBuffers {
  readonly #c: Libc;
  readonly #maps: Mappings;
  readonly #bufWords: Uint32Array;
  readonly #bufTail: Uint16Array;
  readonly #bufMask: number;
  #bufIndex = 0;
  /** All receive buffers, one view: buffer `bid` is `[bid * RECV_BUFFER_BYTES, +RECV_BUFFER_BYTES)`. */
  readonly recvBytes: Uint8Array;
  /** Each receive buffer's address, its low and high words (split once, not per message). */
  readonly #bufLo: Uint32Array;
  readonly #bufHi: Uint32Array;
  // Send slots, small and big, grown a chunk at a time: each chunk's mapping and its one view.
  readonly #slotChunks: [Mapping[], Mapping[]] = [[], []];
  readonly #slotBytes: [Uint8Array[], Uint8Array[]] = [[], []];

  /** Maps `recvBuffers` receive buffers (a power of two) and registers them on the ring `ringFd`. */
  constructor(c: Libc, ringFd: number, recvBuffers: number) {
    this.#c = c;
    this.#maps = new Mappings(c);
    try {
      const bufRing = this.#maps.add(mapAnonymous(c, Math.max(PAGE_BYTES, recvBuffers * 16)));
      this.#bufWords = new Uint32Array(bufRing.view);
      this.#bufTail = new Uint16Array(bufRing.view, 14, 1);
      const recv = this.#maps.add(mapAnonymous(c, recvBuffers * RECV_BUFFER_BYTES));
      this.recvBytes = new Uint8Array(recv.view);
      this.#bufLo = new Uint32Array(recvBuffers);
      this.#bufHi = new Uint32Array(recvBuffers);
      for (let bid = 0; bid < recvBuffers; bid++) {
        const address = recv.address + bid * RECV_BUFFER_BYTES;
        this.#bufLo[bid] = address % 2 ** 32;
        this.#bufHi[bid] = Math.floor(address / 2 ** 32);
      }
      const reg = new Uint8Array(40);
      const rv = new DataView(reg.buffer);
      rv.setBigUint64(0, BigInt(bufRing.address), true);
      rv.setUint32(8, recvBuffers, true);
      rv.setUint16(12, BUFFER_GROUP, true);
      if (c.uring_register(SYS_IO_URING_REGISTER, ringFd, REGISTER_PBUF_RING, reg, 1) < 0) {
        throw new Error(
          `io_uring: no provided-buffer ring (errno ${errnoOf(c)}; Linux 5.19 or newer needed)`,
        );
      }
      this.#bufMask = recvBuffers - 1;
      for (let bid = 0; bid < recvBuffers; bid++) this.returnBuffer(bid);
    } catch (err) {
      this.close();
      throw err;
    }
  }

  returnBuffer(bid: number): void {
    const w = ((this.#bufIndex & this.#bufMask) * 4) | 0;
    this.#bufWords[w] = this.#bufLo[bid];
    this.#bufWords[w + 1] = this.#bufHi[bid];
    this.#bufWords[w + 2] = RECV_BUFFER_BYTES;
    // bid in the low half of the 4th word; the high half is the ring's tail in entry 0: keep it.
    const high = this.#bufWords[w + 3] & 0xffff0000;
    this.#bufWords[w + 3] = high | bid;
    this.#bufIndex = (this.#bufIndex + 1) & 0xffff;
    this.#bufTail[0] = this.#bufIndex;
  }

  /** Receive buffers handed back so far (wraps at 2^16): a starved receive waits for it to move. */
  get buffersReturned(): number {
    return this.#bufIndex;
  }

  /** Socket `token`'s small or (`big`) big send slot: its chunk's shared view, its offset and address. */
  slot(token: number, big: boolean): { chunk: Uint8Array; at: number; address: number } {
    const bytes = big ? SEND_SLOT_BYTES : SMALL_SEND_SLOT_BYTES;
    const [chunks, views] = [this.#slotChunks[big ? 1 : 0], this.#slotBytes[big ? 1 : 0]];
    const chunk = Math.floor(token / SLOTS_PER_CHUNK);
    while (chunks.length <= chunk) {
      const m = this.#maps.add(mapAnonymous(this.#c, SLOTS_PER_CHUNK * bytes));
      chunks.push(m);
      views.push(new Uint8Array(m.view));
    }
    const at = (token % SLOTS_PER_CHUNK) * bytes;
    return { chunk: views[chunk], at, address: chunks[chunk].address + at };
  }

  close(): void {
    this.#maps.unmapAll();
    for (const list of [...this.#slotBytes, ...this.#slotChunks]) list.length = 0;
  }
}
