/**
 * @module
 * The libc binding of the epoll and io_uring transports, and `EpollSys`, a loop's socket and epoll calls.
 * Signatures use `i32`/`u32` (`isize`'s BigInt results made read/write 2.3x slower); calls return `-errno`.
 */
import { AF_INET, type SockAddr } from "../sock_addr.ts";
import { errorMessage } from "../../exchange_errors.ts";

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  epoll_create1: { parameters: ["i32"], result: "i32" },
  epoll_ctl: { parameters: ["i32", "i32", "i32", "buffer"], result: "i32" },
  epoll_wait: { parameters: ["i32", "buffer", "i32", "i32"], result: "i32" },
  epoll_wait_idle: {
    name: "epoll_wait",
    parameters: ["i32", "buffer", "i32", "i32"],
    result: "i32",
    nonblocking: true,
  },
  // The deno transport's probe (ready_wait.ts `LoopLagProbe`): an off-thread call that ends at a known time.
  usleep_idle: { name: "usleep", parameters: ["u32"], result: "i32", nonblocking: true },
  read: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  write: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  ioctl: { parameters: ["i32", "u32", "buffer"], result: "i32" },
  clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
  __errno_location: { parameters: [], result: "pointer" },
  getaddrinfo: { parameters: ["buffer", "pointer", "buffer", "buffer"], result: "i32" },
  freeaddrinfo: { parameters: ["pointer"], result: "void" },
  timerfd_create: { parameters: ["i32", "i32"], result: "i32" },
  timerfd_settime: { parameters: ["i32", "i32", "buffer", "buffer"], result: "i32" },
  // The io_uring transport's (uring/ffi.ts): `syscall` takes an `i64` number, as `long` fills its register.
  uring_setup: { name: "syscall", parameters: ["i64", "u32", "buffer"], result: "i32" },
  // The seventh argument (`argsz`, size_t) goes on the stack: a `u32` writes only its low half, so the
  // kernel may see a wrong size (EINVAL); a `pointer` is written whole and keeps the fast call.
  uring_enter: {
    name: "syscall",
    parameters: ["i64", "i32", "u32", "u32", "u32", "pointer", "pointer"],
    result: "i32",
  },
  uring_register: { name: "syscall", parameters: ["i64", "i32", "u32", "buffer", "u32"], result: "i32" },
  mmap: { parameters: ["pointer", "usize", "i32", "i32", "i32", "i64"], result: "pointer" },
  munmap: { parameters: ["pointer", "usize"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

export type Libc = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

// Linux constants (the same on x86_64 and aarch64).
export const SOCK_STREAM = 1;
const SOCK_CLOEXEC = 0o2000000;
/** Made non-blocking by `socket` itself (no `fcntl` pair per connection). */
const SOCK_NONBLOCK = 0o4000;
const IPPROTO_TCP = 6;
const IPPROTO_IP = 0;
/** Bind the address now, the port at connect: ports are then shared among destinations (Linux 4.2). */
const IP_BIND_ADDRESS_NO_PORT = 24;
const TCP_NODELAY = 1;
const SOL_SOCKET = 1;
const SO_ERROR = 4;
const FIONREAD = 0x541b;
const EPOLL_CLOEXEC = 0o2000000;
export const CLOCK_MONOTONIC = 1;
export const EPOLL_CTL_ADD = 1;
export const EPOLLIN = 0x1;
export const EPOLLOUT = 0x4;
export const EPOLLERR = 0x8;
export const EPOLLHUP = 0x10;
export const EPOLLRDHUP = 0x2000;
export const EPOLLET = 0x80000000;
export const EAGAIN = 11;
export const EINTR = 4;
export const EINPROGRESS = 115;

const MAX_EVENTS = 256;
/** Largest single read or write: far below 2^31, so `i32` results never overflow. */
export const MAX_IO_BYTES = 1 << 24;
/** What `closeDrained` reads at most before the close: a peer still flooding gets its reset. */
const DRAIN_MAX_BYTES = 256 * 1024;

/** Why the epoll transport is unavailable here (not Linux, FFI not permitted, no libc), or null. */
export function epollUnavailableReason(): string | null {
  if (Deno.build.os !== "linux") return `not Linux (${Deno.build.os})`;
  if (Deno.build.arch !== "x86_64" && Deno.build.arch !== "aarch64") {
    return `unsupported arch ${Deno.build.arch}`;
  }
  try {
    libc();
    return null;
  } catch (err) {
    const message = errorMessage(err);
    if (err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied) {
      return `FFI not permitted (--allow-ffi): ${message}`;
    }
    return `libc not loadable through FFI: ${message}`;
  }
}

let loaded: Libc | null = null;

export function libc(): Libc {
  if (loaded === null) loaded = Deno.dlopen("libc.so.6", SYMBOLS).symbols;
  return loaded;
}

/** x86_64 packs `struct epoll_event` (12 bytes); aarch64 aligns its u64 data (16 bytes). */
const EVENT_BYTES = Deno.build.arch === "x86_64" ? 12 : 16;
const EVENT_DATA_OFFSET = Deno.build.arch === "x86_64" ? 4 : 8;
/** Events are read by index, never through a method a script could replace (`DataView.prototype`). */
const EVENT_WORDS = EVENT_BYTES / 4;
const EVENT_DATA_WORD = EVENT_DATA_OFFSET / 4;

/** One isolate's view of libc for the epoll transport: the scratch buffers live here and nowhere else. */
export class EpollSys {
  readonly #c = libc();
  readonly #errno = new Deno.UnsafePointerView(this.#c.__errno_location()!);
  readonly #int = new Int32Array(1);
  readonly #drainScratch = new Uint8Array(16 * 1024);
  readonly #intBytes = new Uint8Array(this.#int.buffer);
  readonly #len = new Uint32Array(1);
  readonly #lenBytes = new Uint8Array(this.#len.buffer);
  readonly #ctlWords = new Uint32Array(4);
  readonly #ctlEvent = new Uint8Array(this.#ctlWords.buffer);
  /** Events of the synchronous wait, and of the idle (off-thread) wait: never the same buffer. */
  readonly events = new Uint32Array(MAX_EVENTS * EVENT_WORDS);
  readonly idleEvents = new Uint32Array(MAX_EVENTS * EVENT_WORDS);
  readonly #eventBytes = new Uint8Array(this.events.buffer);
  readonly #idleBytes = new Uint8Array(this.idleEvents.buffer);
  #idleWaiting = false;
  /** An epoll set closed while an idle wait on it was queued: closed once that wait returns. */
  #closeAfterIdle = -1;

  /** `struct timespec` of `nowMs` (two 64-bit words; the low halves suffice: seconds since boot). */
  readonly #timespec = new Int32Array(4);
  readonly #timespecBytes = new Uint8Array(this.#timespec.buffer);
  /** performance.now() minus CLOCK_MONOTONIC in ms: both read the same clock (Instant is CLOCK_MONOTONIC). */
  readonly #clockOffsetMs: number;

  constructor() {
    let offsetMs = Infinity;
    for (let k = 0; k < 5; k++) offsetMs = Math.min(offsetMs, -this.#monotonicMs() + performance.now());
    this.#clockOffsetMs = offsetMs;
  }

  #monotonicMs(): number {
    this.#c.clock_gettime(CLOCK_MONOTONIC, this.#timespecBytes);
    return this.#timespec[0] * 1e3 + this.#timespec[2] / 1e6;
  }

  /** `performance.now()` through a fast FFI call (a third of its cost), within a microsecond of it. */
  nowMs(): number {
    return this.#monotonicMs() + this.#clockOffsetMs;
  }

  /** This thread's errno (for a library called through FFI that reports a system call's failure). */
  lastErrno(): number {
    return this.#errno.getInt32(0);
  }

  #ret(rc: number): number {
    return rc >= 0 ? rc : -this.#errno.getInt32(0);
  }

  /** A non-blocking, close-on-exec TCP socket with TCP_NODELAY; returns the fd or `-errno`. */
  tcpSocket(family: number): number {
    const c = this.#c;
    const fd = c.socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0) return this.#ret(fd);
    this.#int[0] = 1;
    const rc = c.setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, this.#intBytes, 4);
    if (rc < 0) {
      const err = this.#ret(rc);
      c.close(fd);
      return err;
    }
    return fd;
  }

  /** Binds `fd` to source `addr`, the port left to the connect (IP_BIND_ADDRESS_NO_PORT); 0 or `-errno`. */
  bindSource(fd: number, addr: SockAddr): number {
    const c = this.#c;
    if (addr.family === AF_INET) {
      this.#int[0] = 1;
      c.setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, this.#intBytes, 4);
    }
    return this.#ret(c.bind(fd, addr.bytes, addr.family === AF_INET ? 16 : 28));
  }

  /** Starts a connect: 0 when connected already, `-EINPROGRESS` while under way, else `-errno`. */
  connect(fd: number, addr: SockAddr): number {
    const need = addr.family === AF_INET ? 16 : 28;
    if (addr.bytes.length < need) throw new RangeError("sockaddr too short");
    return this.#ret(this.#c.connect(fd, addr.bytes, need));
  }

  /** The pending error of a socket (SO_ERROR): 0 once a connect succeeded, else the errno. */
  socketError(fd: number): number {
    this.#int[0] = 0;
    this.#len[0] = 4;
    const rc = this.#c.getsockopt(fd, SOL_SOCKET, SO_ERROR, this.#intBytes, this.#lenBytes);
    return rc < 0 ? this.#errno.getInt32(0) : this.#int[0];
  }

  epollCreate(): number {
    return this.#ret(this.#c.epoll_create1(EPOLL_CLOEXEC));
  }

  epollCtl(epfd: number, op: number, fd: number, events: number, token: number): number {
    this.#ctlWords[0] = events >>> 0;
    this.#ctlWords[EVENT_DATA_WORD] = token >>> 0;
    this.#ctlWords[EVENT_DATA_WORD + 1] = 0;
    return this.#ret(this.#c.epoll_ctl(epfd, op, fd, this.#ctlEvent));
  }

  epollWait(epfd: number, timeoutMs: number): number {
    return this.#ret(this.#c.epoll_wait(epfd, this.#eventBytes, MAX_EVENTS, timeoutMs));
  }

  get idleWaitPending(): boolean {
    return this.#idleWaiting;
  }

  /** The idle wait, off this thread so timers and messages run meanwhile; events into `idleEvents`. */
  async epollWaitAsync(epfd: number, timeoutMs: number): Promise<number> {
    if (this.#idleWaiting) throw new Error("one idle wait at a time");
    this.#idleWaiting = true;
    try {
      const rc = await this.#c.epoll_wait_idle(epfd, this.#idleBytes, MAX_EVENTS, timeoutMs);
      return rc < 0 ? 0 : rc; // EINTR and the like: nothing ready (errno is the pool thread's)
    } finally {
      this.#idleWaiting = false;
      if (this.#closeAfterIdle === epfd) {
        this.#closeAfterIdle = -1;
        this.close(epfd);
      }
    }
  }

  /** Resolves once a thread-pool thread has slept `ms`: settles when the event loop hands it over. */
  async sleepOffThread(ms: number): Promise<void> {
    await this.#c.usleep_idle(Math.round(ms * 1000));
  }

  /** Closes an epoll set once no idle wait is queued on it: a late one would eat the next set's events. */
  closeEpoll(epfd: number): void {
    if (this.#idleWaiting) this.#closeAfterIdle = epfd;
    else this.close(epfd);
  }

  eventFlags(events: Uint32Array, i: number): number {
    return events[i * EVENT_WORDS];
  }

  eventToken(events: Uint32Array, i: number): number {
    return events[i * EVENT_WORDS + EVENT_DATA_WORD];
  }

  read(fd: number, buf: Uint8Array, length = buf.length): number {
    if (length < 0 || length > buf.length || length > MAX_IO_BYTES) throw new RangeError("read length");
    return this.#ret(this.#c.read(fd, buf, length));
  }

  write(fd: number, bytes: Uint8Array): number {
    const length = Math.min(bytes.length, MAX_IO_BYTES);
    return this.#ret(this.#c.write(fd, bytes, length));
  }

  bytesReadable(fd: number): number {
    const rc = this.#c.ioctl(fd, FIONREAD, this.#intBytes);
    return rc < 0 ? this.#ret(rc) : this.#int[0];
  }

  close(fd: number): void {
    if (fd >= 0) this.#c.close(fd);
  }

  /** Closes `fd` after draining it: unread bytes send a reset, not a FIN (RFC 1122 4.2.2.13). */
  closeDrained(fd: number): void {
    if (fd < 0) return;
    const scratch = this.#drainScratch;
    for (let taken = 0; taken < DRAIN_MAX_BYTES;) {
      const n = this.#c.read(fd, scratch, scratch.length);
      if (n <= 0) break;
      taken += n;
    }
    this.#c.close(fd);
  }
}
