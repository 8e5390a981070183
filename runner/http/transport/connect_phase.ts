/**
 * @module
 * The connect phase of an epoll or io_uring socket: the non-blocking connect, then over TLS the OpenSSL
 * handshake stepped on each edge and timed apart. MEMORY: a handshake holds ~50 KB of OpenSSL buffers, so
 * the loop runs HANDSHAKES_IN_FLIGHT at once and queues the rest in order.
 */
import { EAGAIN, type EpollSys } from "./epoll/ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { connectError, connectStateOf } from "./socket_errors.ts";
import type { SslConn, SslNegotiated } from "../tls/openssl_conn.ts";
import type { ConnectWaiter, TransportConn } from "./transport.ts";

/** What the connect phase needs of the socket's loop (a part of socket_table.ts's `SocketLoop`). */
export interface ConnectLoop {
  readonly sys: EpollSys;
  readonly addr: SockAddr;
  tlsInfo: SslNegotiated | null;
  waiting: number;
  wait(): void;
  settled(): void;
  /** https: true when `phase`'s handshake may start now, else it is queued; absent without TLS. */
  handshakeSlot?(phase: ConnectPhase): boolean;
  /** https: a handshake ended (done, failed or abandoned): the next queued one starts. */
  handshakeEnded?(): void;
}

/** Handshakes one loop runs at once (the rest wait, connected, in order): see the module comment. */
export const HANDSHAKES_IN_FLIGHT = 256;

/** The socket being connected: resolved with itself, closed on failure. */
interface ConnectingSocket extends TransportConn {
  readonly fd: number;
  readonly loop: ConnectLoop;
  readonly ssl: SslConn | null;
}

export class ConnectPhase {
  #waiter: ConnectWaiter | null = null;
  /** https: the handshake after the TCP connect is under way (the connect's promise still pending). */
  #handshaking = false;
  /** https: connected, its handshake queued behind HANDSHAKES_IN_FLIGHT others. */
  queued = false;
  tlsMs = -1;

  constructor(readonly sock: ConnectingSocket) {}

  get pending(): boolean {
    return this.#waiter !== null;
  }

  /** The connect's end told to `waiter` (closing the socket aborts it: `waiter` is told then). */
  waitFor(waiter: ConnectWaiter): void {
    this.#waiter = waiter;
    this.sock.loop.wait();
  }

  /** An edge while connecting: the handshake's next step on any edge, the connect's end on a writable one. */
  edge(any: boolean, writable: boolean): void {
    if (this.#handshaking) {
      if (any) this.#stepHandshake();
    } else if (this.#waiter !== null && writable && !this.queued) this.connected();
  }

  connected(): void {
    const sock = this.sock;
    const loop = sock.loop;
    const errno = loop.sys.socketError(sock.fd);
    if (errno === 0 && sock.ssl !== null) {
      if (loop.handshakeSlot?.(this) ?? true) this.startHandshake();
      else this.queued = true;
      return;
    }
    const waiter = this.#waiter!;
    this.#waiter = null;
    loop.settled();
    if (errno === 0) waiter.connected(sock);
    else {
      const err = connectError(errno, loop.addr);
      sock.close();
      waiter.connectFailed(err);
    }
  }

  /** https: the handshake starts (at the connect, or when the loop's turn for a queued one comes). */
  startHandshake(): void {
    this.queued = false;
    this.#handshaking = true;
    this.tlsMs = this.sock.loop.sys.nowMs(); // the start, until the handshake is done
    this.#stepHandshake();
  }

  /** One `SSL_connect` step: done (the connect resolves, timed), waiting for the next edge, or failed. */
  #stepHandshake(): void {
    const sock = this.sock;
    let failure: unknown = null;
    try {
      if (sock.ssl!.handshake() === -EAGAIN) return;
    } catch (err) {
      failure = err;
    }
    this.#handshaking = false;
    this.tlsMs = sock.loop.sys.nowMs() - this.tlsMs;
    const waiter = this.#waiter!;
    this.#waiter = null;
    sock.loop.settled();
    if (failure === null) {
      sock.loop.tlsInfo ??= sock.ssl!.negotiated();
      waiter.connected(sock);
    } else {
      sock.close();
      waiter.connectFailed(failure);
    }
    sock.loop.handshakeEnded?.();
  }

  /** The socket closes: a waiting connect is detached (a handshake cut at the timeout: a connect timeout). */
  abandon(fd: number) {
    const loop = this.sock.loop;
    const state = this.#handshaking || this.queued
      ? "connected, but the encrypted session was still being set up"
      : this.#waiter !== null
      ? connectStateOf(loop.sys, fd, loop.addr)
      : "";
    const waiter = this.#waiter;
    if (waiter !== null) loop.waiting--;
    const handshaking = this.#handshaking;
    this.#handshaking = false;
    this.queued = false; // the loop skips it when its turn comes
    this.#waiter = null;
    if (handshaking) loop.handshakeEnded?.();
    return { state, waiter };
  }
}
