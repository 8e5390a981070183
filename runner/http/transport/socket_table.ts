/**
 * @module
 * What a transport's event loop keeps of its sockets: each by its token, the ready list (two lists take
 * turns), the count of sockets waiting, which starts the pump, and the closed models' blocking pump.
 */
import { EINPROGRESS, type EpollSys } from "./epoll/ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { connectError, notAttemptedError } from "./socket_errors.ts";
import { nextTurn } from "../../load/clock.ts";
import type { ConnectLoop } from "./connect_phase.ts";
import type { ConnectWaiter, TransportConn } from "./transport.ts";

/** What a socket needs of its loop (a `SocketTable`): declared here, so sockets need not import loops. */
export interface SocketLoop<S> extends ConnectLoop {
  /** Events settled outside the pump since its last turn. */
  asyncWakes: number;
  ready(sock: S): void;
  release(token: number): void;
}

/** A socket the table holds: dialled, served from the ready list, closed with the loop. */
interface TableSocket extends TransportConn {
  readonly fd: number;
  serveReady(): void;
  /** Its connect's end told to `waiter` (`now`: the connect completed at once, as on loopback). */
  awaitConnect(waiter: ConnectWaiter, now: boolean): void;
}

export abstract class SocketTable<S extends TableSocket> {
  readonly slots: Array<S | null> = [];
  readonly #free: number[] = [];
  #ready: S[] = [];
  /** The other of the two ready lists: served from while new arrivals go to `#ready`. */
  #serving: S[] = [];

  /** Sockets waiting for an event (connect, read, or a write the kernel had no room for). */
  waiting = 0;
  /** Promises settled (connect, read, write, an exchange's end): their continuations need a turn. */
  asyncWakes = 0;
  protected pumping = false;
  protected closed = false;
  abstract readonly sys: EpollSys;
  abstract readonly addr: SockAddr;

  /** A socket registered, its connect not started yet, or why not. */
  protected abstract open(): S | Error;

  /** Dials the loop's address; a connect past `signal` (watchdog, shutdown) fails and closes the socket. */
  connect(signal: AbortSignal): Promise<TransportConn> {
    return new Promise((resolve, reject) => {
      let sock: TransportConn | null = null;
      const onAbort = () => sock?.close();
      signal.addEventListener("abort", onAbort, { once: true });
      sock = this.connectTo({
        connected: (conn) => {
          signal.removeEventListener("abort", onAbort);
          resolve(conn);
        },
        connectFailed: (err) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      });
    });
  }

  /** Dials the loop's address, its end told to `waiter`; closing the socket aborts it. */
  connectTo(waiter: ConnectWaiter): TransportConn | null {
    const sock = this.open();
    const started = sock instanceof Error ? sock : startConnect(this.sys, this.addr, sock);
    if (typeof started !== "number") {
      waiter.connectFailed(started);
      return null;
    }
    (sock as S).awaitConnect(waiter, started === 0);
    return sock as S;
  }

  /** Runs rounds while sockets wait; clears `pumping` in the turn of its last check. */
  protected abstract pump(): void;
  /** The blocking pump's steps: start and end, a wait in the kernel, completions handed over, the flush. */
  protected abstract pumpStarted(): void;
  protected abstract block(leftMs: number): boolean;
  protected pumpEnded(): void {}
  protected reap(): void {}
  protected turnEnded(): void {}

  /** The closed models' pump: rounds up to `blockMs` a turn, blocking in the kernel between (as wrk's). */
  protected async pumpBlocking(blockMs: number): Promise<void> {
    const sys = this.sys;
    try {
      // Started inside whoever armed a read before its write: the first round waits for the next turn.
      await nextTurn();
      this.pumpStarted();
      while (this.waiting > 0 && !this.closed) {
        const turnEndMs = sys.nowMs() + blockMs;
        this.asyncWakes = 0;
        while (true) {
          this.serveReady();
          this.reap();
          if (this.waiting === 0 || this.asyncWakes > 0 || this.closed) break;
          const leftMs = turnEndMs - sys.nowMs();
          if (leftMs <= 0 || !this.block(leftMs)) break;
        }
        this.turnEnded();
        await nextTurn();
      }
    } finally {
      // In the same turn as the loop's last check, so a socket that starts waiting next is seen by `wait`.
      this.pumping = false;
      this.pumpEnded();
    }
  }

  /** A socket starts waiting for an event: counted, and the pump started if it is not running. */
  wait(): void {
    this.waiting++;
    if (!this.pumping && !this.closed) {
      this.pumping = true;
      this.pump();
    }
  }

  settled(): void {
    this.waiting--;
    this.asyncWakes++;
  }

  get openSockets(): number {
    return this.slots.length - this.#free.length;
  }

  nextToken(): number {
    return this.#free.pop() ?? this.slots.length;
  }

  release(token: number): void {
    this.slots[token] = null;
    this.#free.push(token);
  }

  /** Onto the ready list (once): a read armed on a readable socket, or its turn's budget spent. */
  ready(sock: S): void {
    this.#ready.push(sock);
  }

  get readyCount(): number {
    return this.#ready.length;
  }

  serveReady(): void {
    if (this.#ready.length === 0) return;
    const ready = this.#ready;
    this.#ready = this.#serving;
    this.#serving = ready;
    try {
      for (let i = 0; i < ready.length; i++) ready[i].serveReady();
    } finally {
      ready.length = 0;
    }
  }

  protected closeAll(): boolean {
    if (this.closed) return false;
    for (const sock of this.slots) sock?.close();
    this.closed = true;
    return true;
  }
}

/** A non-blocking TCP socket for `addr` (bound to `source`), or the error of a connect never attempted. */
export function loopSocket(
  sys: EpollSys,
  addr: SockAddr,
  closedLoop: string | null,
  source: SockAddr | null = null,
): number | Error {
  if (closedLoop !== null) {
    return new Deno.errors.BadResource(`never attempted: the ${closedLoop} loop was closed`);
  }
  const fd = sys.tcpSocket(addr.family);
  if (fd < 0) return notAttemptedError("socket", -fd, addr);
  if (source === null) return fd;
  const bound = sys.bindSource(fd, source);
  if (bound >= 0) return fd;
  sys.close(fd);
  return notAttemptedError(`bind to ${source.text.replace(/:0$/, "")}`, -bound, addr);
}

/** Starts `sock`'s connect: 0 (connected) or -EINPROGRESS, else its error (the socket closed). */
function startConnect(
  sys: EpollSys,
  addr: SockAddr,
  sock: { fd: number; close(): void },
): number | Error {
  const started = sys.connect(sock.fd, addr);
  if (started >= 0 || started === -EINPROGRESS) return started;
  sock.close();
  return connectError(-started, addr);
}
