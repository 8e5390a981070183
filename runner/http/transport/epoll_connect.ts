/**
 * @module
 * The connect phase of one epoll socket (transport/epoll_socket.ts): the non-blocking TCP connect's completion
 * (`SO_ERROR` at the first writable edge), then over TLS the OpenSSL handshake (tls/openssl_conn.ts), stepped
 * on each edge until it is done and timed apart (`tlsMs`). It tells the connect's waiter once (a promise's
 * resolvers, or the dialer itself on epoll): the socket, or the error after closing it; a socket closed while connecting fails it with what
 * the kernel had for the connect then. Kept apart from the socket, which holds the established
 * connection's reads and writes.
 */
import { EAGAIN, type EpollSys } from "./epoll_ffi.ts";
import type { SockAddr } from "./sock_addr.ts";
import { connectError, connectStateOf } from "./epoll_errors.ts";
import type { SslConn, SslNegotiated } from "../tls/openssl_conn.ts";
import type { ConnectWaiter, TransportConn } from "./transport.ts";

/** What the connect phase needs of the socket's loop (a part of transport/epoll_socket.ts's `SocketLoop`). */
interface ConnectLoop {
  readonly sys: EpollSys;
  readonly addr: SockAddr;
  tlsInfo: SslNegotiated | null;
  waiting: number;
  wait(): void;
  settled(): void;
}

/** The socket being connected: resolved with itself, closed on failure. */
export interface ConnectingSocket extends TransportConn {
  readonly fd: number;
  readonly loop: ConnectLoop;
  readonly ssl: SslConn | null;
  close(): void;
}

/** A connect (or its handshake) waiting at close: why it ended, and its waiter, detached. */
export interface AbandonedConnect {
  state: string;
  waiter: ConnectWaiter | null;
}

export class ConnectPhase {
  /** Told how the connect ends; null when none is waiting. */
  #waiter: ConnectWaiter | null = null;
  /** https: the handshake after the TCP connect is under way (the connect's promise still pending). */
  #handshaking = false;
  /** https: how long the handshake took (Connection reads it for `tlsMs`); -1 for plain TCP. */
  tlsMs = -1;

  constructor(readonly sock: ConnectingSocket) {}

  /** A connect or its handshake is waiting for the socket. */
  get pending(): boolean {
    return this.#waiter !== null;
  }

  /** The connect's promise; a connect past `signal` (watchdog, shutdown) closes the socket. */
  wait(signal: AbortSignal): Promise<TransportConn> {
    return new Promise((resolve, reject) => {
      const onAbort = () => this.sock.close();
      signal.addEventListener("abort", onAbort, { once: true });
      this.waitFor({
        connected: (sock) => {
          signal.removeEventListener("abort", onAbort);
          resolve(sock);
        },
        connectFailed: (err) => {
          signal.removeEventListener("abort", onAbort);
          reject(err);
        },
      });
    });
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
    } else if (this.#waiter !== null && writable) this.connected();
  }

  /** The TCP connect completed (or failed): over TLS the handshake starts now. */
  connected(): void {
    const sock = this.sock;
    const loop = sock.loop;
    const errno = loop.sys.socketError(sock.fd);
    if (errno === 0 && sock.ssl !== null) {
      this.#handshaking = true;
      this.tlsMs = loop.sys.nowMs(); // the start, until the handshake is done
      this.#stepHandshake();
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
  }

  /**
   * The socket closes (its `fd` still open): detaches a waiting connect and says what it was doing. A
   * handshake cut off by the timeout counts as a connect timeout, as on the deno transport (no
   * "tls"/"handshake"/"certificate" in the message, which would count it as a tls failure).
   */
  abandon(fd: number): AbandonedConnect {
    const loop = this.sock.loop;
    const state = this.#handshaking
      ? "connected, but the encrypted session was still being set up"
      : this.#waiter !== null
      ? connectStateOf(loop.sys, fd, loop.addr)
      : "";
    const waiter = this.#waiter;
    if (waiter !== null) loop.waiting--;
    this.#handshaking = false;
    this.#waiter = null;
    return { state, waiter };
  }
}
