/**
 * @module
 * The epoll transport (Linux, opt-in: `--transport epoll`): the same `TransportConn` contract as
 * `Deno.connect` (read into the caller's buffer, write, close; a read pending on a closed socket
 * fails), so `Connection`, the parser, the recorder, the watchdog and every executor stay as they are,
 * and one conformance suite runs against both (STYLE rule 14). What changes is underneath: every
 * socket of a worker is a non-blocking libc socket registered edge-triggered in one epoll set, and one
 * pump turns ready events into resolved reads, so a round of responses costs one `epoll_wait` instead
 * of a tokio op, a promise and a microtask per read and per write. Writes are synchronous `write`
 * calls. HOT PATH: `read` on a socket already known readable is one libc `read`; nothing else allocates
 * but the promise the caller awaits.
 *
 * The pump polls (`epoll_wait` with timeout 0) while events keep coming, yielding one event-loop turn
 * (setImmediate) after each round so the continuations run and timers (watchdog, interval drain,
 * open-model pacer) stay on time; when a few polls found nothing it waits off-thread for at most
 * `IDLE_WAIT_MS`. It runs only while some socket waits, so an idle worker can exit.
 */
import { setImmediate } from "node:timers";
import {
  EAGAIN,
  EINPROGRESS,
  EINTR,
  EPOLL_CTL_ADD,
  EPOLLERR,
  EPOLLET,
  EPOLLHUP,
  EPOLLIN,
  EPOLLOUT,
  EPOLLRDHUP,
  EpollSys,
  errnoMessage,
  type SockAddr,
  sockAddrOf,
} from "./epoll_ffi.ts";
import type { TransportConn } from "./connection.ts";

/** Longest off-thread wait when idle: bounds how late a stop or a closed loop is noticed. */
const IDLE_WAIT_MS = 5;
/** Empty polls (one event-loop turn each) before the pump waits off-thread. */
const SPIN_TURNS = 2;
const INTEREST = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves `hostname` once (numeric literals as they are) to the address every connect of a run uses. */
export function resolveOnce(sys: EpollSys, hostname: string, port: number): SockAddr {
  const literal = /^[\d.]+$/.test(hostname) || hostname.includes(":");
  const ip = literal ? hostname : sys.resolve(hostname)[0];
  if (ip === undefined) throw new Error(`cannot resolve ${hostname}: no address`);
  return sockAddrOf(ip, port);
}

/** One worker's epoll set and its sockets; `connect` is the transport, `close` ends it all. */
export class EpollLoop {
  readonly sys: EpollSys;
  readonly #epfd: number;
  /** Sockets by token (their slot); freed slots are reused. */
  readonly #slots: Array<EpollSocket | null> = [];
  readonly #free: number[] = [];
  /** Sockets waiting for an event (connect, read, or a write the kernel had no room for). */
  waiting = 0;
  #pumping = false;
  #closed = false;

  constructor(readonly addr: SockAddr, sys = new EpollSys()) {
    this.sys = sys;
    const epfd = sys.epollCreate();
    if (epfd < 0) throw new Error(`epoll_create1 failed: ${errnoMessage(-epfd)}`);
    this.#epfd = epfd;
  }

  /** Open sockets (for tests: zero after a run). */
  get openSockets(): number {
    return this.#slots.length - this.#free.length;
  }

  /** Dials the run's address; a connect past `signal` (watchdog, shutdown) fails and closes the socket. */
  connect(signal: AbortSignal): Promise<TransportConn> {
    if (this.#closed) return Promise.reject(new Deno.errors.BadResource("epoll loop closed"));
    const fd = this.sys.tcpSocket(this.addr.family);
    if (fd < 0) return Promise.reject(connectError(-fd, this.addr));
    const token = this.#free.pop() ?? this.#slots.length;
    const sock = new EpollSocket(this, fd, token);
    this.#slots[token] = sock;
    const rc = this.sys.epollCtl(this.#epfd, EPOLL_CTL_ADD, fd, INTEREST, token);
    const started = rc < 0 ? rc : this.sys.connect(fd, this.addr);
    if (started < 0 && started !== -EINPROGRESS) {
      sock.close();
      return Promise.reject(connectError(-started, this.addr));
    }
    if (started === 0) return Promise.resolve(sock);
    return sock.awaitConnect(signal);
  }

  /** Called by a socket when it closes: its slot is free again (the kernel drops it from the set). */
  release(token: number): void {
    this.#slots[token] = null;
    this.#free.push(token);
  }

  /** Starts the pump when something waits and it is not running. */
  wake(): void {
    if (!this.#pumping && this.waiting > 0 && !this.#closed) {
      this.#pumping = true;
      this.#pump().catch(() => {});
    }
  }

  /**
   * Closes every socket (their pending reads fail) and the epoll set, at once: the worker may be
   * terminated right after, and an idle wait still pending on another thread holds its own reference
   * to the set until its timeout; the pump then sees `#closed` and never touches the fd again.
   */
  close(): void {
    if (this.#closed) return;
    for (const sock of this.#slots) sock?.close();
    this.#closed = true;
    this.sys.close(this.#epfd);
  }

  async #pump(): Promise<void> {
    const sys = this.sys;
    let empty = 0;
    try {
      while (this.waiting > 0 && !this.#closed) {
        const n = sys.epollWait(this.#epfd, 0);
        if (n > 0) {
          this.#dispatch(sys.events, n);
          empty = 0;
        } else if (++empty > SPIN_TURNS) {
          this.#dispatch(sys.idleEvents, await sys.epollWaitAsync(this.#epfd, IDLE_WAIT_MS));
          empty = 0;
          continue; // its continuations already ran: awaiting the wait drained the microtasks
        }
        await nextTurn();
      }
    } finally {
      // In the same turn as the loop's last check, so a socket that starts waiting next is seen by `wake`.
      this.#pumping = false;
    }
  }

  #dispatch(events: DataView, n: number): void {
    for (let i = 0; i < n; i++) {
      const sock = this.#slots[this.sys.eventToken(events, i)];
      if (sock != null) sock.onEvents(this.sys.eventFlags(events, i));
    }
  }
}

/** One non-blocking TCP socket in the loop's epoll set, with Deno.Conn's read/write/close contract. */
export class EpollSocket implements TransportConn {
  /** Edge-triggered: true from an EPOLLIN edge until a read comes back short or with EAGAIN. */
  #readable = false;
  #readBuf: Uint8Array | null = null;
  #onRead: ((n: number | null) => void) | null = null;
  #onReadError: ((err: Error) => void) | null = null;
  #onConnect: (() => void) | null = null;
  #onConnectError: ((err: Error) => void) | null = null;
  #pendingWrite: Uint8Array | null = null;
  #onWrite: ((n: number) => void) | null = null;
  #onWriteError: ((err: Error) => void) | null = null;

  constructor(readonly loop: EpollLoop, public fd: number, readonly token: number) {}

  awaitConnect(signal: AbortSignal): Promise<TransportConn> {
    return new Promise((resolve, reject) => {
      const onAbort = () => this.close();
      signal.addEventListener("abort", onAbort, { once: true });
      this.#onConnect = () => {
        signal.removeEventListener("abort", onAbort);
        resolve(this);
      };
      this.#onConnectError = (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      };
      this.#wait();
    });
  }

  read(buf: Uint8Array): Promise<number | null> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    if (this.#readable) {
      const n = this.loop.sys.read(this.fd, buf);
      if (n >= 0) {
        if (n < buf.length) this.#readable = false;
        return Promise.resolve(n === 0 ? null : n);
      }
      this.#readable = false;
      if (n !== -EAGAIN && n !== -EINTR) return Promise.reject(readError(-n));
    }
    return new Promise((resolve, reject) => {
      this.#readBuf = buf;
      this.#onRead = resolve;
      this.#onReadError = reject;
      this.#wait();
    });
  }

  write(bytes: Uint8Array): Promise<number> {
    if (this.fd < 0) return Promise.reject(new Deno.errors.BadResource("socket closed"));
    const n = this.loop.sys.write(this.fd, bytes);
    if (n >= 0) return Promise.resolve(n);
    if (n !== -EAGAIN && n !== -EINTR) return Promise.reject(writeError(-n));
    return new Promise((resolve, reject) => {
      this.#pendingWrite = bytes;
      this.#onWrite = resolve;
      this.#onWriteError = reject;
      this.#wait();
    });
  }

  /** Closes the fd; whatever was pending fails as a read on a closed Deno.Conn does. */
  close(): void {
    const fd = this.fd;
    if (fd < 0) return;
    this.fd = -1;
    this.loop.sys.close(fd);
    this.loop.release(this.token);
    const closed = new Deno.errors.BadResource("socket closed");
    const { onConnectError, onReadError, onWriteError } = this.#takeAll();
    onConnectError?.(new Deno.errors.Interrupted("connect aborted"));
    onReadError?.(closed);
    onWriteError?.(closed);
  }

  /** Called by the pump with this socket's ready flags. */
  onEvents(flags: number): void {
    if (this.#onConnect !== null && (flags & (EPOLLOUT | EPOLLERR | EPOLLHUP)) !== 0) this.#connected();
    if ((flags & (EPOLLIN | EPOLLRDHUP | EPOLLERR | EPOLLHUP)) !== 0) {
      this.#readable = true;
      if (this.#onRead !== null) this.#readNow();
    }
    if (this.#pendingWrite !== null && (flags & (EPOLLOUT | EPOLLERR | EPOLLHUP)) !== 0) this.#writeNow();
  }

  #wait(): void {
    this.loop.waiting++;
    this.loop.wake();
  }

  #connected(): void {
    const errno = this.loop.sys.socketError(this.fd);
    const resolve = this.#onConnect!;
    const reject = this.#onConnectError!;
    this.#onConnect = this.#onConnectError = null;
    this.loop.waiting--;
    if (errno === 0) resolve();
    else {
      const err = connectError(errno, this.loop.addr);
      this.close();
      reject(err);
    }
  }

  #readNow(): void {
    const n = this.loop.sys.read(this.fd, this.#readBuf!);
    if (n === -EAGAIN || n === -EINTR) {
      this.#readable = false;
      return;
    }
    if (n >= 0 && n < this.#readBuf!.length) this.#readable = false;
    const resolve = this.#onRead!;
    const reject = this.#onReadError!;
    this.#readBuf = null;
    this.#onRead = this.#onReadError = null;
    this.loop.waiting--;
    if (n >= 0) resolve(n === 0 ? null : n);
    else reject(readError(-n));
  }

  #writeNow(): void {
    const n = this.loop.sys.write(this.fd, this.#pendingWrite!);
    if (n === -EAGAIN || n === -EINTR) return;
    const resolve = this.#onWrite!;
    const reject = this.#onWriteError!;
    this.#pendingWrite = null;
    this.#onWrite = this.#onWriteError = null;
    this.loop.waiting--;
    if (n >= 0) resolve(n);
    else reject(writeError(-n));
  }

  /** Detaches every pending callback (and its count in `waiting`). */
  #takeAll() {
    const taken = {
      onConnectError: this.#onConnectError,
      onReadError: this.#onReadError,
      onWriteError: this.#onWriteError,
    };
    const pending = Number(this.#onConnect !== null) + Number(this.#onRead !== null) +
      Number(this.#onWrite !== null);
    this.loop.waiting -= pending;
    this.#onConnect = this.#onConnectError = null;
    this.#onRead = this.#onReadError = null;
    this.#onWrite = this.#onWriteError = null;
    this.#readBuf = this.#pendingWrite = null;
    return taken;
  }
}

function connectError(errno: number, addr: SockAddr): Error {
  const message = `${errnoMessage(errno)} connecting to ${addr.text}`;
  if (errno === 111) return new Deno.errors.ConnectionRefused(message);
  if (errno === 110) return new Deno.errors.TimedOut(message);
  return new Deno.errors.ConnectionAborted(message);
}

function readError(errno: number): Error {
  if (errno === 104) return new Deno.errors.ConnectionReset(errnoMessage(errno));
  return new Deno.errors.ConnectionAborted(errnoMessage(errno));
}

function writeError(errno: number): Error {
  if (errno === 32) return new Deno.errors.BrokenPipe(errnoMessage(errno));
  return new Deno.errors.ConnectionReset(errnoMessage(errno));
}
