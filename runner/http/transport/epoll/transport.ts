/**
 * @module
 * The epoll transport (Linux; https: through OpenSSL): a worker's sockets edge-triggered in one epoll set,
 * one pump turning ready events into reads. Closed models block in `epoll_wait`; open ones poll, then wait.
 */
import { EPOLL_CTL_ADD, EPOLLET, EPOLLIN, EPOLLOUT, EPOLLRDHUP, EpollSys } from "./ffi.ts";
import type { SockAddr } from "../sock_addr.ts";
import type { OpenSslClient } from "../../tls/openssl_client.ts";
import type { SslNegotiated } from "../../tls/openssl_conn.ts";
import { EpollSocket } from "./socket.ts";
import { errnoMessage, notAttemptedError } from "../socket_errors.ts";
import { TRACE_CONN, traceConn } from "../conn_trace.ts";
import { nextTurn } from "../../../load/clock.ts";
import { loopSocket, type SocketLoop, SocketTable } from "../socket_table.ts";
import { type ConnectPhase, HANDSHAKES_IN_FLIGHT } from "../connect_phase.ts";
import { PROBE_TOKEN, ReadyProbe, type ReadyWaitSum } from "../ready_wait.ts";

/** Longest off-thread wait when idle: bounds how late a stop or a closed loop is noticed. */
const IDLE_WAIT_MS = 5;
/** Empty polls (one event-loop turn each) before the pump waits off-thread. */
const SPIN_TURNS = 2;
const INTEREST = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;

interface EpollLoopOptions {
  /** Block this thread in `epoll_wait` for up to this many ms (1-5); 0: poll, wait off-thread. */
  blockMs: number;
  /** https: the worker's OpenSSL client; each socket gets its `SSL` and handshakes after connecting. */
  tls?: OpenSslClient;
  /** Source addresses (`--source-addresses`): each new socket is bound to the next one in turn. */
  sources?: readonly SockAddr[];
}

export class EpollLoop extends SocketTable<EpollSocket> implements SocketLoop<EpollSocket> {
  readonly sys: EpollSys;
  readonly #epfd: number;
  readonly #blockMs: number;
  readonly #tls: OpenSslClient | null;
  tlsInfo: SslNegotiated | null = null;
  readonly #sources: readonly SockAddr[];
  #nextSource = 0;
  /** https: handshakes under way, and the connected sockets waiting for one (from `#handshakeHead`). */
  #handshakes = 0;
  readonly #handshakeQueue: ConnectPhase[] = [];
  #handshakeHead = 0;
  /** Blocking loops: how long ready events wait for the pump (null for polling loops, or no timerfd). */
  readonly #probe: ReadyProbe | null = null;

  constructor(readonly addr: SockAddr, sys = new EpollSys(), options: EpollLoopOptions = { blockMs: 0 }) {
    super();
    this.sys = sys;
    this.#blockMs = Math.max(0, Math.min(5, Math.round(options.blockMs)));
    this.#tls = options.tls ?? null;
    this.#sources = options.sources ?? [];
    const epfd = sys.epollCreate();
    if (epfd < 0) throw new Error(`epoll_create1 failed: ${errnoMessage(-epfd)}`);
    this.#epfd = epfd;
    if (this.#blockMs > 0) this.#probe = this.#openProbe();
  }

  /** The probe in this set, or null where the kernel refuses a timerfd or its registration. */
  #openProbe(): ReadyProbe | null {
    const probe = ReadyProbe.open();
    if (probe === null) return null;
    if (this.sys.epollCtl(this.#epfd, EPOLL_CTL_ADD, probe.fd, EPOLLIN | EPOLLET, PROBE_TOKEN) < 0) {
      probe.close();
      return null;
    }
    return probe;
  }

  /** How long ready events waited for the pump since the last call; null without a probe. */
  takeReadyWait(): ReadyWaitSum | null {
    return this.#probe?.take(this.sys.nowMs()) ?? null;
  }

  get epollFd(): number {
    return this.#epfd;
  }

  #source(): SockAddr | null {
    const sources = this.#sources;
    if (sources.length === 0) return null;
    const source = sources[this.#nextSource];
    this.#nextSource = (this.#nextSource + 1) % sources.length;
    return source;
  }

  protected open(): EpollSocket | Error {
    const fd = loopSocket(this.sys, this.addr, this.closed ? "epoll" : null, this.#source());
    if (typeof fd !== "number") return fd;
    const ssl = this.#tls === null ? null : this.#tls.open(fd);
    if (this.#tls !== null && ssl === null) {
      this.sys.close(fd);
      return new Deno.errors.InvalidData("never attempted: tls SSL_new refused (out of memory?)");
    }
    const token = this.nextToken();
    const sock = new EpollSocket(this, fd, token, ssl);
    this.slots[token] = sock;
    const rc = this.sys.epollCtl(this.#epfd, EPOLL_CTL_ADD, fd, INTEREST, token);
    if (rc < 0) {
      sock.close();
      return notAttemptedError("epoll_ctl", -rc, this.addr);
    }
    if (TRACE_CONN) traceConn(`epfd${this.#epfd}`, fd, "connect", `token=${token}`);
    return sock;
  }

  /** https: a handshake may start now (HANDSHAKES_IN_FLIGHT at most), else `phase` waits its turn. */
  handshakeSlot(phase: ConnectPhase): boolean {
    if (this.#handshakes < HANDSHAKES_IN_FLIGHT) {
      this.#handshakes++;
      return true;
    }
    this.#handshakeQueue.push(phase);
    return false;
  }

  /** https: a handshake ended; the oldest queued one still waiting (not closed since) takes its place. */
  handshakeEnded(): void {
    this.#handshakes--;
    const queue = this.#handshakeQueue;
    while (this.#handshakeHead < queue.length && !this.closed) {
      const next = queue[this.#handshakeHead++];
      if (!next.queued) continue;
      this.#handshakes++;
      next.startHandshake();
      break;
    }
    if (this.#handshakeHead === queue.length || this.#handshakeHead >= 1024) {
      queue.splice(0, this.#handshakeHead);
      this.#handshakeHead = 0;
    }
  }

  close(): void {
    if (!this.closeAll()) return;
    this.#probe?.close();
    this.sys.closeEpoll(this.#epfd);
    this.#tls?.close();
  }

  protected pump(): void {
    (this.#blockMs > 0 ? this.pumpBlocking(this.#blockMs) : this.#pumpPolling()).catch((err) => {
      if (TRACE_CONN) traceConn(`epfd${this.#epfd}`, -1, "pump-died", `${err} waiting=${this.waiting}`);
    });
  }

  protected pumpStarted(): void {
    this.#probe?.restart(this.sys.nowMs());
  }

  protected block(leftMs: number): boolean {
    // A socket still on the ready list (its budget spent) has bytes no edge will announce: poll only.
    const n = this.sys.epollWait(this.#epfd, this.readyCount > 0 ? 0 : Math.ceil(leftMs));
    if (n > 0) this.#dispatch(this.sys.events, n);
    return n >= 0;
  }

  /** One non-blocking poll per event-loop turn; after a few empty ones, an off-thread wait. */
  async #pumpPolling(): Promise<void> {
    const sys = this.sys;
    let empty = 0;
    try {
      while (this.waiting > 0 && !this.closed) {
        this.serveReady();
        const n = sys.epollWait(this.#epfd, 0);
        if (n > 0) {
          this.#dispatch(sys.events, n);
          empty = 0;
        } else if (this.readyCount === 0 && ++empty > SPIN_TURNS) {
          const waitedFromMs = TRACE_CONN ? performance.now() : 0;
          const idle = await sys.epollWaitAsync(this.#epfd, IDLE_WAIT_MS);
          if (TRACE_CONN) this.#traceIdleWait(idle, performance.now() - waitedFromMs);
          this.#dispatch(sys.idleEvents, idle);
          empty = 0;
          continue; // its continuations already ran: awaiting the wait drained the microtasks
        }
        await nextTurn();
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The trace's note of an idle wait that came back late (the thread pool was behind) or after close. */
  #traceIdleWait(events: number, tookMs: number): void {
    if (tookMs < 4 * IDLE_WAIT_MS && !this.closed) return;
    const sys = this.sys, tokens = [];
    for (let i = 0; i < Math.min(events, 8); i++) {
      tokens.push(`${sys.eventToken(sys.idleEvents, i)}:${sys.eventFlags(sys.idleEvents, i).toString(16)}`);
    }
    const detail = `${events} events in ${tookMs.toFixed(1)} ms [${tokens.join(" ")}]`;
    traceConn(`epfd${this.#epfd}`, -1, this.closed ? "stray" : "slow-idle-wait", detail);
  }

  #dispatch(events: Uint32Array, n: number): void {
    if (this.closed) return;
    for (let i = 0; i < n; i++) {
      const token = this.sys.eventToken(events, i);
      const sock = this.slots[token];
      if (TRACE_CONN) this.#traceEvent(events, i, sock);
      if (sock != null) sock.onEvents(this.sys.eventFlags(events, i));
      else if (token === PROBE_TOKEN) this.#probe?.fired(this.sys.nowMs());
    }
  }

  #traceEvent(events: Uint32Array, i: number, sock: EpollSocket | null | undefined): void {
    const detail = `token=${this.sys.eventToken(events, i)} flags=${
      this.sys.eventFlags(events, i).toString(16)
    }`;
    traceConn(`epfd${this.#epfd}`, sock?.fd ?? -1, sock == null ? "stray" : "event", detail);
  }
}
