/**
 * @module
 * The io_uring ABI, and `mmap` for memory the kernel touches, which never lives in the V8 heap (the calls are
 * in epoll/ffi.ts's libc binding: `syscall` for io_uring_setup/enter/register, which glibc wraps none of).
 */
import type { Libc } from "../epoll/ffi.ts";

// System call numbers (the same on every architecture since 5.1): `i64`, as `long` fills its register.
export const SYS_IO_URING_SETUP = 425n;
export const SYS_IO_URING_ENTER = 426n;
export const SYS_IO_URING_REGISTER = 427n;

// The ABI (include/uapi/linux/io_uring.h; the same on x86_64 and aarch64).
export const SETUP_CQSIZE = 1 << 3;
export const SETUP_CLAMP = 1 << 4;
export const SETUP_SUBMIT_ALL = 1 << 7;
export const SETUP_SINGLE_ISSUER = 1 << 12;
export const SETUP_DEFER_TASKRUN = 1 << 13;
export const FEAT_SINGLE_MMAP = 1 << 0;
export const FEAT_EXT_ARG = 1 << 8;
export const OFF_SQ_RING = 0;
export const OFF_SQES = 0x10000000;
export const REGISTER_PBUF_RING = 22;
export const ENTER_GETEVENTS = 1 << 0;
export const ENTER_EXT_ARG = 1 << 3;
export const OP_POLL_ADD = 6;
export const OP_TIMEOUT = 11;
export const OP_ASYNC_CANCEL = 14;
export const OP_SEND = 26;
export const OP_RECV = 27;
export const IOSQE_BUFFER_SELECT = 1 << 5;
export const RECV_MULTISHOT = 1 << 1;
export const MSG_NOSIGNAL = 0x4000;
export const MSG_WAITALL = 0x100;
export const CQE_F_BUFFER = 1 << 0;
export const CQE_F_MORE = 1 << 1;
export const POLLOUT = 0x4;
export const POLLERR = 0x8;
export const POLLHUP = 0x10;
export const ETIME = 62;
/** The completion queue overflowed and could not be flushed yet: wait and try again. */
export const EBUSY = 16;
export const ENOBUFS = 105;
export const ECANCELED = 125;

const PROT_RW = 0x1 | 0x2;
const MAP_SHARED = 0x01;
const MAP_PRIVATE = 0x02;
const MAP_ANONYMOUS = 0x20;
const MAP_POPULATE = 0x8000;
export const PAGE_BYTES = 4096;

/** Entries of the submission queue (the completion queue has four times as many). */
export const SQ_ENTRIES = 1024;
/** Provided receive buffers: how many, and the size of each (a power of two each). */
export const RECV_BUFFERS = 256;
export const RECV_BUFFER_BYTES = 16 * 1024;
/** A socket's first send slot, eight to a page; a larger write moves it to a big slot for good. */
export const SMALL_SEND_SLOT_BYTES = 512;
export const SEND_SLOT_BYTES = 8 * 1024;
/** Send slots per `mmap`: the slab grows by this many sockets at a time. */
export const SLOTS_PER_CHUNK = 64;
export const BUFFER_GROUP = 0;

/** An anonymous mapping (never a V8 buffer): its address and a view of it. */
export interface Mapping {
  ptr: Deno.PointerObject;
  address: number;
  bytes: number;
  view: ArrayBuffer;
}

/** The mappings one owner (the ring, its buffers) made, unmapped together when it closes. */
export class Mappings {
  readonly #list: Mapping[] = [];

  constructor(readonly c: Libc) {}

  add(m: Mapping): Mapping {
    this.#list.push(m);
    return m;
  }

  unmapAll(): void {
    for (const m of this.#list.splice(0)) this.c.munmap(m.ptr, BigInt(m.bytes));
  }
}

export function errnoOf(c: Libc): number {
  return new Deno.UnsafePointerView(c.__errno_location()!).getInt32(0);
}

export function mapAnonymous(c: Libc, bytes: number): Mapping {
  const ptr = c.mmap(null, BigInt(bytes), PROT_RW, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0n);
  const address = Number(Deno.UnsafePointer.value(ptr));
  if (ptr === null || address === 2 ** 64 - 1 || address === -1) {
    throw new Error(`io_uring: mmap of ${bytes} bytes failed (errno ${errnoOf(c)})`);
  }
  return { ptr, address, bytes, view: Deno.UnsafePointerView.getArrayBuffer(ptr, bytes) };
}

export function mapRing(c: Libc, fd: number, bytes: number, offset: number): Mapping {
  const ptr = c.mmap(null, BigInt(bytes), PROT_RW, MAP_SHARED | MAP_POPULATE, fd, BigInt(offset));
  const address = ptr === null ? -1 : Number(Deno.UnsafePointer.value(ptr));
  if (ptr === null || address >= 2 ** 64 - 4096) {
    throw new Error(`io_uring: mmap of the ring failed (errno ${errnoOf(c)})`);
  }
  return { ptr, address, bytes, view: Deno.UnsafePointerView.getArrayBuffer(ptr, bytes) };
}
