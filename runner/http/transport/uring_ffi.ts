/**
 * @module
 * The io_uring binding of the io_uring transport (Linux, `Deno.dlopen` of libc): the ring's set-up
 * through libc's `syscall` (io_uring_setup/enter/register; glibc wraps none of them), its rings
 * `mmap`ed and read and written through typed-array views of that memory, a registered provided-buffer
 * ring that multishot receives fill, and per-socket send slots. All of it is memory the kernel may read
 * or write while we run, so none of it is a V8 heap buffer: everything lives in anonymous `mmap`s that
 * never move and are unmapped when the ring closes. The ring is made with SINGLE_ISSUER|DEFER_TASKRUN,
 * so completions only appear inside our own `io_uring_enter`: every ring access is synchronous on the
 * worker's thread, between two calls. HOT PATH: `prepSend`/`prepRecvMultishot` write 16 words of an
 * SQE, `enter` is one FFI call (`i32`/`u32` signatures, the syscall number an `i64` parameter).
 * Only the set-up and the probe throw; the hot calls return `-errno`.
 */

// The system call numbers (the same on every architecture since Linux 5.1): `i64`, as `syscall`'s
// `long` needs its whole register.
const SYS_IO_URING_SETUP = 425n;
const SYS_IO_URING_ENTER = 426n;
const SYS_IO_URING_REGISTER = 427n;

const SYMBOLS = {
  uring_setup: { name: "syscall", parameters: ["i64", "u32", "buffer"], result: "i32" },
  uring_enter: {
    name: "syscall",
    parameters: ["i64", "i32", "u32", "u32", "u32", "pointer", "u32"],
    result: "i32",
  },
  uring_register: { name: "syscall", parameters: ["i64", "i32", "u32", "buffer", "u32"], result: "i32" },
  mmap: { parameters: ["pointer", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
  munmap: { parameters: ["pointer", "usize"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const satisfies Deno.ForeignLibraryInterface;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

// The ABI (include/uapi/linux/io_uring.h; the same on x86_64 and aarch64).
const SETUP_CQSIZE = 1 << 3;
const SETUP_CLAMP = 1 << 4;
const SETUP_SUBMIT_ALL = 1 << 7;
const SETUP_SINGLE_ISSUER = 1 << 12;
const SETUP_DEFER_TASKRUN = 1 << 13;
const FEAT_SINGLE_MMAP = 1 << 0;
const FEAT_EXT_ARG = 1 << 8;
const OFF_SQ_RING = 0;
const OFF_SQES = 0x10000000;
const REGISTER_PBUF_RING = 22;
const ENTER_GETEVENTS = 1 << 0;
const ENTER_EXT_ARG = 1 << 3;
const OP_POLL_ADD = 6;
const OP_ASYNC_CANCEL = 14;
const OP_SEND = 26;
const OP_RECV = 27;
const IOSQE_BUFFER_SELECT = 1 << 5;
const RECV_MULTISHOT = 1 << 1;
const CANCEL_ALL = 1 << 0;
const CANCEL_FD = 1 << 1;
const MSG_NOSIGNAL = 0x4000;
const MSG_WAITALL = 0x100;
export const CQE_F_BUFFER = 1 << 0;
export const CQE_F_MORE = 1 << 1;
export const POLLOUT = 0x4;
export const POLLERR = 0x8;
export const POLLHUP = 0x10;
export const ETIME = 62;
export const ENOBUFS = 105;
export const ECANCELED = 125;

const PROT_RW = 0x1 | 0x2;
const MAP_SHARED = 0x01;
const MAP_PRIVATE = 0x02;
const MAP_ANONYMOUS = 0x20;
const MAP_POPULATE = 0x8000;
const PAGE_BYTES = 4096;

/** Entries of the submission queue (the completion queue has four times as many). */
export const SQ_ENTRIES = 1024;
/** Provided receive buffers: how many, and the size of each (a power of two each). */
export const RECV_BUFFERS = 256;
export const RECV_BUFFER_BYTES = 16 * 1024;
/** One socket's send slot: its bytes waiting for, or in, a send (bigger writes go through in turns). */
export const SEND_SLOT_BYTES = 8 * 1024;
/** Send slots per `mmap`: the slab grows by this many sockets at a time. */
const SLOTS_PER_CHUNK = 64;
const BUFFER_GROUP = 0;

let loaded: Libc | null = null;
let probed: string | null | undefined = undefined;

function libc(): Libc {
  if (loaded === null) loaded = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  return loaded;
}

/**
 * Why an io_uring ring with what the transport needs (SINGLE_ISSUER|DEFER_TASKRUN, a provided-buffer
 * ring: Linux 6.1 or newer, which also has multishot receive) cannot be made here, or null. Made and
 * closed once per isolate: EPERM/ENOSYS (seccomp, `kernel.io_uring_disabled`), EINVAL (an older kernel).
 */
export function uringUnavailableReason(): string | null {
  if (probed !== undefined) return probed;
  if (Deno.build.os !== "linux") return probed = `not Linux (${Deno.build.os})`;
  if (Deno.build.arch !== "x86_64" && Deno.build.arch !== "aarch64") {
    return probed = `unsupported arch ${Deno.build.arch}`;
  }
  try {
    new UringRing(8, 8).close();
    probed = null;
  } catch (err) {
    probed = err instanceof Error ? err.message : String(err);
  }
  return probed;
}

/** An anonymous mapping (never a V8 buffer): its address and a view of it. */
interface Mapping {
  ptr: Deno.PointerObject;
  address: number;
  bytes: number;
  view: ArrayBuffer;
}

function errnoOf(c: Libc): number {
  return new Deno.UnsafePointerView(c.__errno_location()!).getInt32(0);
}

function mapAnonymous(c: Libc, bytes: number): Mapping {
  const ptr = c.mmap(null, BigInt(bytes), PROT_RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0n);
  const address = Number(Deno.UnsafePointer.value(ptr));
  if (ptr === null || address === 2 ** 64 - 1 || address === -1) {
    throw new Error(`io_uring: mmap of ${bytes} bytes failed (errno ${errnoOf(c)})`);
  }
  return { ptr, address, bytes, view: Deno.UnsafePointerView.getArrayBuffer(ptr, bytes) };
}

function mapRing(c: Libc, fd: number, bytes: number, offset: number): Mapping {
  const ptr = c.mmap(null, BigInt(bytes), PROT_RW, MAP_SHARED | MAP_POPULATE, fd, BigInt(offset));
  const address = ptr === null ? -1 : Number(Deno.UnsafePointer.value(ptr));
  if (ptr === null || address >= 2 ** 64 - 4096) {
    throw new Error(`io_uring: mmap of the ring failed (errno ${errnoOf(c)})`);
  }
  return { ptr, address, bytes, view: Deno.UnsafePointerView.getArrayBuffer(ptr, bytes) };
}

/**
 * One ring, its provided receive buffers and its send slots. Not shared between isolates (each
 * worker makes its own, on its own thread: SINGLE_ISSUER).
 */
export class UringRing {
  readonly #c = libc();
  readonly fd: number;
  readonly #maps: Mapping[] = [];
  // Submission queue.
  readonly #sqTail: Uint32Array;
  readonly #sqHead: Uint32Array;
  readonly #sqMask: number;
  readonly #sqEntries: number;
  readonly #sqes: Uint32Array;
  #tail = 0;
  #submitted = 0;
  // Completion queue: read by the loop through `cqes` (4 words a CQE: user_data lo/hi, res, flags).
  readonly #cqHead: Uint32Array;
  readonly #cqTail: Uint32Array;
  readonly #cqMask: number;
  readonly #cqBase: number;
  readonly cqWords: Uint32Array;
  readonly cqRes: Int32Array;
  // Provided buffers.
  readonly #bufRing: Mapping;
  readonly #bufWords: Uint32Array;
  readonly #bufTail: Uint16Array;
  #bufIndex = 0;
  /** All receive buffers, one view: buffer `bid` is `[bid * RECV_BUFFER_BYTES, +RECV_BUFFER_BYTES)`. */
  readonly recvBytes: Uint8Array;
  readonly #recvAddress: number;
  // Send slots (grown a chunk at a time) and the wait's argument (getevents_arg + timespec).
  readonly #slotChunks: Mapping[] = [];
  readonly slotBytes: Uint8Array[] = [];
  readonly #waitArg: Mapping;
  readonly #waitWords: Int32Array;

  constructor(sqEntries = SQ_ENTRIES, recvBuffers = RECV_BUFFERS) {
    const c = this.#c;
    const params = new Uint8Array(120);
    const pv = new DataView(params.buffer);
    pv.setUint32(0, sqEntries, true);
    pv.setUint32(4, sqEntries * 4, true);
    pv.setUint32(
      8,
      SETUP_CQSIZE | SETUP_CLAMP | SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN,
      true,
    );
    const fd = c.uring_setup(SYS_IO_URING_SETUP, sqEntries, params);
    if (fd < 0) {
      const errno = errnoOf(c);
      const why = errno === 1
        ? "not permitted (EPERM: kernel.io_uring_disabled or a seccomp filter)"
        : errno === 38
        ? "not in this kernel (ENOSYS, or filtered by seccomp)"
        : errno === 22
        ? "this kernel lacks SINGLE_ISSUER/DEFER_TASKRUN (EINVAL: Linux 6.1 or newer needed)"
        : `errno ${errno}`;
      throw new Error(`io_uring_setup: ${why}`);
    }
    this.fd = fd;
    try {
      const features = pv.getUint32(20, true);
      if ((features & FEAT_SINGLE_MMAP) === 0 || (features & FEAT_EXT_ARG) === 0) {
        throw new Error("io_uring: this kernel lacks single mmap or EXT_ARG (Linux 5.11 or newer needed)");
      }
      const sqEnt = pv.getUint32(0, true);
      const cqEnt = pv.getUint32(4, true);
      const sq = (k: number) => pv.getUint32(40 + 4 * k, true);
      const cq = (k: number) => pv.getUint32(80 + 4 * k, true);
      const ringBytes = Math.max(sq(6) + sqEnt * 4, cq(5) + cqEnt * 16);
      const ring = this.#map(mapRing(c, fd, ringBytes, OFF_SQ_RING));
      const sqes = this.#map(mapRing(c, fd, sqEnt * 64, OFF_SQES));
      const words = new Uint32Array(ring.view);
      this.#sqHead = words.subarray(sq(0) / 4, sq(0) / 4 + 1);
      this.#sqTail = words.subarray(sq(1) / 4, sq(1) / 4 + 1);
      this.#sqMask = words[sq(2) / 4];
      this.#sqEntries = words[sq(3) / 4];
      // The index array maps ring slot k to SQE k, once: SQEs are then used in ring order.
      for (let k = 0; k < sqEnt; k++) words[sq(6) / 4 + k] = k;
      this.#sqes = new Uint32Array(sqes.view);
      this.#tail = this.#submitted = this.#sqTail[0];
      this.#cqHead = words.subarray(cq(0) / 4, cq(0) / 4 + 1);
      this.#cqTail = words.subarray(cq(1) / 4, cq(1) / 4 + 1);
      this.#cqMask = words[cq(2) / 4];
      this.#cqBase = cq(5) / 4;
      this.cqWords = words;
      this.cqRes = new Int32Array(ring.view);
      // The provided-buffer ring (16 bytes an entry, its tail in entry 0's last u16) and its buffers.
      this.#bufRing = this.#map(mapAnonymous(c, Math.max(PAGE_BYTES, recvBuffers * 16)));
      this.#bufWords = new Uint32Array(this.#bufRing.view);
      this.#bufTail = new Uint16Array(this.#bufRing.view, 14, 1);
      const recv = this.#map(mapAnonymous(c, recvBuffers * RECV_BUFFER_BYTES));
      this.recvBytes = new Uint8Array(recv.view);
      this.#recvAddress = recv.address;
      const reg = new Uint8Array(40);
      const rv = new DataView(reg.buffer);
      rv.setBigUint64(0, BigInt(this.#bufRing.address), true);
      rv.setUint32(8, recvBuffers, true);
      rv.setUint16(12, BUFFER_GROUP, true);
      if (c.uring_register(SYS_IO_URING_REGISTER, fd, REGISTER_PBUF_RING, reg, 1) < 0) {
        throw new Error(
          `io_uring: no provided-buffer ring (errno ${errnoOf(c)}; Linux 5.19 or newer needed)`,
        );
      }
      this.#bufMask = recvBuffers - 1;
      for (let bid = 0; bid < recvBuffers; bid++) this.returnBuffer(bid);
      this.#waitArg = this.#map(mapAnonymous(c, PAGE_BYTES));
      this.#waitWords = new Int32Array(this.#waitArg.view);
      // struct io_uring_getevents_arg { u64 sigmask; u32 sigmask_sz; u32 min_wait_usec; u64 ts; } at 0,
      // its __kernel_timespec at 32.
      new DataView(this.#waitArg.view).setBigUint64(16, BigInt(this.#waitArg.address + 32), true);
    } catch (err) {
      this.close();
      throw err;
    }
  }

  readonly #bufMask: number = 0;

  #map(m: Mapping): Mapping {
    this.#maps.push(m);
    return m;
  }

  /** Hands receive buffer `bid` back to the kernel. */
  returnBuffer(bid: number): void {
    const w = ((this.#bufIndex & this.#bufMask) * 4) | 0;
    const address = this.#recvAddress + bid * RECV_BUFFER_BYTES;
    this.#bufWords[w] = address % 2 ** 32;
    this.#bufWords[w + 1] = Math.floor(address / 2 ** 32);
    this.#bufWords[w + 2] = RECV_BUFFER_BYTES;
    // bid in the low half of the 4th word; the high half is the ring's tail in entry 0: keep it.
    const high = this.#bufWords[w + 3] & 0xffff0000;
    this.#bufWords[w + 3] = high | bid;
    this.#bufIndex = (this.#bufIndex + 1) & 0xffff;
    Atomics.store(this.#bufTail, 0, this.#bufIndex);
  }

  /** The send slot of socket `token` (grown a chunk at a time): its view and its address. */
  slot(token: number): { bytes: Uint8Array; address: number } {
    const chunk = Math.floor(token / SLOTS_PER_CHUNK);
    while (this.#slotChunks.length <= chunk) {
      const m = this.#map(mapAnonymous(this.#c, SLOTS_PER_CHUNK * SEND_SLOT_BYTES));
      this.#slotChunks.push(m);
      for (let k = 0; k < SLOTS_PER_CHUNK; k++) {
        this.slotBytes.push(new Uint8Array(m.view, k * SEND_SLOT_BYTES, SEND_SLOT_BYTES));
      }
    }
    const address = this.#slotChunks[chunk].address + (token % SLOTS_PER_CHUNK) * SEND_SLOT_BYTES;
    return { bytes: this.slotBytes[token], address };
  }

  /** Space left in the submission queue. */
  get sqFree(): number {
    return this.#sqEntries - (this.#tail - Atomics.load(this.#sqHead, 0));
  }

  /** The next SQE's first word, zeroed (a full queue is handed to the kernel first). */
  #sqe(): number {
    if (this.#tail - Atomics.load(this.#sqHead, 0) >= this.#sqEntries) this.enter(0, 0);
    const base = ((this.#tail & this.#sqMask) * 16) | 0;
    this.#tail = (this.#tail + 1) >>> 0;
    const s = this.#sqes;
    // Word by word: a typed array's `fill` is a call into the runtime, this is a few stores.
    for (let k = base; k < base + 16; k++) s[k] = 0;
    return base;
  }

  /** A send of `length` bytes at `address` (a send slot); `MSG_WAITALL`, so only a failure is short. */
  prepSend(fd: number, address: number, length: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe();
    s[b] = OP_SEND;
    s[b + 1] = fd;
    s[b + 4] = address % 2 ** 32;
    s[b + 5] = Math.floor(address / 2 ** 32);
    s[b + 6] = length;
    s[b + 7] = MSG_NOSIGNAL | MSG_WAITALL;
    s[b + 8] = udLo;
    s[b + 9] = udHi;
  }

  /** A multishot receive into the provided buffers: one CQE per chunk until it ends (no F_MORE). */
  prepRecvMultishot(fd: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe();
    s[b] = OP_RECV | (IOSQE_BUFFER_SELECT << 8) | (RECV_MULTISHOT << 16);
    s[b + 1] = fd;
    s[b + 8] = udLo;
    s[b + 9] = udHi;
    s[b + 10] = BUFFER_GROUP;
  }

  /** One readiness poll of `events` (a connect's end: POLLOUT). */
  prepPoll(fd: number, events: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe();
    s[b] = OP_POLL_ADD;
    s[b + 1] = fd;
    s[b + 7] = events;
    s[b + 8] = udLo;
    s[b + 9] = udHi;
  }

  /** Cancels every request on `fd` (its receive, a send, a poll); its own CQE carries `udLo`/`udHi`. */
  prepCancelFd(fd: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe();
    s[b] = OP_ASYNC_CANCEL;
    s[b + 1] = fd;
    s[b + 7] = CANCEL_ALL | CANCEL_FD;
    s[b + 8] = udLo;
    s[b + 9] = udHi;
  }

  /** Cancels the request whose user_data is `target` (lo/hi); its own CQE carries `udLo`/`udHi`. */
  prepCancel(targetLo: number, targetHi: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe();
    s[b] = OP_ASYNC_CANCEL;
    s[b + 1] = -1;
    s[b + 4] = targetLo;
    s[b + 5] = targetHi;
    s[b + 8] = udLo;
    s[b + 9] = udHi;
  }

  /** Receive buffers handed back so far (wraps at 2^16): a starved receive waits for it to move. */
  get buffersReturned(): number {
    return this.#bufIndex;
  }

  /** SQEs written and not yet handed to the kernel. */
  get unsubmitted(): number {
    return (this.#tail - this.#submitted) >>> 0;
  }

  /**
   * Submits what is queued and runs the deferred completions: waits for at least `minComplete`
   * CQEs, at most `timeoutMs` (0: no wait). Returns SQEs submitted, or `-errno` (-ETIME: the wait
   * timed out).
   */
  enter(minComplete: number, timeoutMs: number): number {
    const toSubmit = (this.#tail - this.#submitted) >>> 0;
    Atomics.store(this.#sqTail, 0, this.#tail);
    this.#submitted = this.#tail;
    let rc: number;
    if (minComplete > 0 && timeoutMs > 0) {
      const ns = Math.round(timeoutMs * 1e6);
      this.#waitWords[8] = Math.floor(ns / 1e9);
      this.#waitWords[9] = 0;
      this.#waitWords[10] = ns % 1e9;
      this.#waitWords[11] = 0;
      rc = this.#c.uring_enter(
        SYS_IO_URING_ENTER,
        this.fd,
        toSubmit,
        minComplete,
        ENTER_GETEVENTS | ENTER_EXT_ARG,
        this.#waitArg.ptr,
        24,
      );
    } else {
      rc = this.#c.uring_enter(SYS_IO_URING_ENTER, this.fd, toSubmit, 0, ENTER_GETEVENTS, null, 0);
    }
    return rc >= 0 ? rc : -errnoOf(this.#c);
  }

  /** CQEs ready: `[head, tail)`; the caller reads `cqeIndex(head + k)` and then `consumed`. */
  get cqHead(): number {
    return this.#cqHead[0];
  }

  get cqTail(): number {
    return Atomics.load(this.#cqTail, 0);
  }

  /** The first word of CQE number `n` in `cqWords` (`cqRes` for its result, `+3` its flags). */
  cqeWord(n: number): number {
    return (this.#cqBase + (n & this.#cqMask) * 4) | 0;
  }

  /** Hands CQEs up to `head` back to the kernel. */
  consumed(head: number): void {
    Atomics.store(this.#cqHead, 0, head >>> 0);
  }

  /** Closes the ring (the kernel cancels what is still in flight) and unmaps everything. */
  close(): void {
    if (this.fd >= 0) this.#c.close(this.fd);
    (this as { fd: number }).fd = -1;
    for (const m of this.#maps.splice(0)) this.#c.munmap(m.ptr, BigInt(m.bytes));
    this.slotBytes.length = 0;
    this.#slotChunks.length = 0;
  }
}
