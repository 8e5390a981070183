/**
 * @module
 * One io_uring ring, made with SINGLE_ISSUER|DEFER_TASKRUN, so completions only appear inside our own
 * `io_uring_enter` and heads and tails are plain loads and stores. HOT PATH: only set-up throws.
 */
import {
  BUFFER_GROUP,
  ENTER_EXT_ARG,
  ENTER_GETEVENTS,
  errnoOf,
  FEAT_EXT_ARG,
  FEAT_SINGLE_MMAP,
  IOSQE_BUFFER_SELECT,
  mapAnonymous,
  type Mapping,
  Mappings,
  mapRing,
  MSG_NOSIGNAL,
  MSG_WAITALL,
  OFF_SQ_RING,
  OFF_SQES,
  OP_ASYNC_CANCEL,
  OP_POLL_ADD,
  OP_RECV,
  OP_SEND,
  OP_TIMEOUT,
  PAGE_BYTES,
  RECV_BUFFERS,
  RECV_MULTISHOT,
  SETUP_CLAMP,
  SETUP_CQSIZE,
  SETUP_DEFER_TASKRUN,
  SETUP_SINGLE_ISSUER,
  SETUP_SUBMIT_ALL,
  SQ_ENTRIES,
  SYS_IO_URING_ENTER,
  SYS_IO_URING_SETUP,
} from "./ffi.ts";
import { type Libc, libc } from "../epoll/ffi.ts";
import { UringBuffers } from "./buffers.ts";
import { errorMessage } from "../../exchange_errors.ts";

/** Makes a ring of `sqEntries` (a CQ four times as big), filling `params`; throws why not. */
function setupRing(c: Libc, sqEntries: number, params: Uint8Array): number {
  const pv = new DataView(params.buffer);
  pv.setUint32(0, sqEntries, true);
  pv.setUint32(4, sqEntries * 4, true);
  const flags = SETUP_CQSIZE | SETUP_CLAMP | SETUP_SUBMIT_ALL | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN;
  pv.setUint32(8, flags, true);
  const fd = c.uring_setup(SYS_IO_URING_SETUP, sqEntries, params);
  if (fd >= 0) return fd;
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

/** `sizeof(struct io_uring_getevents_arg)`, as the 64-bit value the call's last argument must be. */
const GETEVENTS_ARG_BYTES = Deno.UnsafePointer.create(24n);

/** One ring and its buffers. Not shared between isolates (each worker makes its own: SINGLE_ISSUER). */
export class UringRing {
  readonly #c = libc();
  readonly fd: number;
  readonly #maps = new Mappings(this.#c);
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
  /** `readyResult`'s index: where a CQE was seen, by its user_data's low word, and how far it looked. */
  readonly #seenAt = new Map<number, number>();
  #scannedTo = 0;
  /** The receive buffers and send slots (unset only when a set-up failed before they were made). */
  readonly buffers: UringBuffers;
  readonly #waitArg: Mapping;
  readonly #waitWords: Int32Array;

  constructor(sqEntries = SQ_ENTRIES, recvBuffers = RECV_BUFFERS) {
    const c = this.#c;
    const params = new Uint8Array(120);
    const pv = new DataView(params.buffer);
    const fd = setupRing(c, sqEntries, params);
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
      const ring = this.#maps.add(mapRing(c, fd, ringBytes, OFF_SQ_RING));
      const sqes = this.#maps.add(mapRing(c, fd, sqEnt * 64, OFF_SQES));
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
      this.buffers = new UringBuffers(c, fd, recvBuffers);
      this.#waitArg = this.#maps.add(mapAnonymous(c, PAGE_BYTES));
      this.#waitWords = new Int32Array(this.#waitArg.view);
      // io_uring_getevents_arg { u64 sigmask; u32 sigmask_sz, min_wait_usec; u64 ts } at 0, timespec at 32.
      new DataView(this.#waitArg.view).setBigUint64(16, BigInt(this.#waitArg.address + 32), true);
    } catch (err) {
      this.close();
      throw err;
    }
  }

  #sqe(op: number, fd: number, udLo: number, udHi: number): number {
    if (this.#tail - this.#sqHead[0] >= this.#sqEntries) this.enter(0, 0);
    const base = ((this.#tail & this.#sqMask) * 16) | 0;
    this.#tail = (this.#tail + 1) >>> 0;
    const s = this.#sqes;
    // Word by word: a typed array's `fill` is a call into the runtime, this is a few stores.
    for (let k = base; k < base + 16; k++) s[k] = 0;
    s[base] = op;
    s[base + 1] = fd;
    s[base + 8] = udLo;
    s[base + 9] = udHi;
    return base;
  }

  /** A send of `length` bytes at `addrLo + addrHi * 2^32`; `MSG_WAITALL`, so only a failure is short. */
  prepSend(fd: number, addrLo: number, addrHi: number, length: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe(OP_SEND, fd, udLo, udHi);
    s[b + 4] = addrLo;
    s[b + 5] = addrHi;
    s[b + 6] = length;
    s[b + 7] = MSG_NOSIGNAL | MSG_WAITALL;
  }

  /** A multishot receive into the provided buffers: one CQE per chunk until it ends (no F_MORE). */
  prepRecvMultishot(fd: number, udLo: number, udHi: number): void {
    const b = this.#sqe(OP_RECV | (IOSQE_BUFFER_SELECT << 8) | (RECV_MULTISHOT << 16), fd, udLo, udHi);
    this.#sqes[b + 10] = BUFFER_GROUP;
  }

  prepPoll(fd: number, events: number, udLo: number, udHi: number): void {
    this.#sqes[this.#sqe(OP_POLL_ADD, fd, udLo, udHi) + 7] = events;
  }

  /** A timeout of `ms` from submission, completing with -ETIME (timespec in the wait argument's page). */
  prepTimeout(ms: number, udLo: number, udHi: number): void {
    const w = this.#waitWords;
    w[16] = Math.floor(ms / 1000);
    w[17] = 0;
    w[18] = (ms % 1000) * 1e6;
    w[19] = 0;
    const s = this.#sqes;
    const b = this.#sqe(OP_TIMEOUT, -1, udLo, udHi);
    s[b + 4] = this.#waitArg.address + 64;
    s[b + 5] = Math.floor((this.#waitArg.address + 64) / 2 ** 32);
    s[b + 6] = 1;
  }

  /** Cancels the request whose user_data is `target` (lo/hi); its own CQE carries `udLo`/`udHi`. */
  prepCancel(targetLo: number, targetHi: number, udLo: number, udHi: number): void {
    const s = this.#sqes;
    const b = this.#sqe(OP_ASYNC_CANCEL, -1, udLo, udHi);
    s[b + 4] = targetLo;
    s[b + 5] = targetHi;
  }

  get unsubmitted(): number {
    return (this.#tail - this.#submitted) >>> 0;
  }

  /** Hands what is queued to the kernel now (sends go out), without running deferred completions. */
  submit(): void {
    const toSubmit = (this.#tail - this.#submitted) >>> 0;
    if (toSubmit === 0) return;
    this.#sqTail[0] = this.#tail;
    this.#submitted = this.#tail;
    this.#c.uring_enter(SYS_IO_URING_ENTER, this.fd, toSubmit, 0, 0, null, null);
  }

  /** Submits what is queued, runs deferred completions, waits for `minComplete` CQEs up to `timeoutMs`. */
  enter(minComplete: number, timeoutMs: number): number {
    const toSubmit = (this.#tail - this.#submitted) >>> 0;
    this.#sqTail[0] = this.#tail;
    this.#submitted = this.#tail;
    let rc: number;
    if (minComplete > 0 && timeoutMs > 0) {
      const ns = Math.round(timeoutMs * 1e6);
      this.#waitWords[8] = Math.floor(ns / 1e9);
      this.#waitWords[9] = 0;
      this.#waitWords[10] = ns % 1e9;
      this.#waitWords[11] = 0;
      const flags = ENTER_GETEVENTS | ENTER_EXT_ARG;
      rc = this.#c.uring_enter(
        SYS_IO_URING_ENTER,
        this.fd,
        toSubmit,
        minComplete,
        flags,
        this.#waitArg.ptr,
        GETEVENTS_ARG_BYTES,
      );
    } else {
      rc = this.#c.uring_enter(SYS_IO_URING_ENTER, this.fd, toSubmit, 0, ENTER_GETEVENTS, null, null);
    }
    return rc >= 0 ? rc : -errnoOf(this.#c);
  }

  /** CQEs ready: `[head, tail)`; the caller reads `cqeIndex(head + k)` and then `consumed`. */
  get cqHead(): number {
    return this.#cqHead[0];
  }

  get cqTail(): number {
    return this.#cqTail[0];
  }

  /** The first word of CQE number `n` in `cqWords` (`cqRes` for its result, `+3` its flags). */
  cqeWord(n: number): number {
    return (this.#cqBase + (n & this.#cqMask) * 4) | 0;
  }

  /** The ready CQE's result for `udLo`/`udHi`, else NaN; each CQE is looked at once (a closing crowd). */
  readyResult(udLo: number, udHi: number): number {
    const head = this.cqHead, tail = this.cqTail;
    const inQueue = (n: number) => ((n - head) >>> 0) < ((tail - head) >>> 0);
    let n = inQueue(this.#scannedTo) ? this.#scannedTo : head;
    for (; n !== tail; n = (n + 1) >>> 0) this.#seenAt.set(this.cqWords[this.cqeWord(n)], n);
    this.#scannedTo = tail;
    const at = this.#seenAt.get(udLo);
    if (at === undefined || !inQueue(at)) return NaN;
    const w = this.cqeWord(at);
    return this.cqWords[w] === udLo && this.cqWords[w + 1] === udHi ? this.cqRes[w + 2] : NaN;
  }

  consumed(head: number): void {
    this.#cqHead[0] = head >>> 0;
  }

  close(): void {
    if (this.fd >= 0) this.#c.close(this.fd);
    (this as { fd: number }).fd = -1;
    this.#maps.unmapAll();
    this.#seenAt.clear();
    this.buffers?.close();
  }
}

let probed: string | null | undefined = undefined;

/** Why a ring (Linux 6.1+) cannot be made here, or null; EPERM/ENOSYS: seccomp; EINVAL: an older kernel. */
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
    probed = errorMessage(err);
  }
  return probed;
}
