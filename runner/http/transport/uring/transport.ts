/**
 * @module
 * The io_uring transport (Linux 6.1+, plain TCP, closed models; experimental): multishot receives and send
 * SQEs, so a round costs one `io_uring_enter`. The pump blocks its thread like a closed model's epoll pump.
 */
import { EAGAIN, EINTR, type EpollSys } from "../epoll/ffi.ts";
import type { SockAddr } from "../sock_addr.ts";
import { EBUSY, ETIME } from "./ffi.ts";
import { UringRing } from "./ring.ts";
import { UD_POLL, UD_RECV, UD_SEND, UringSocket, type UringSocketLoop } from "./socket.ts";
import { loopSocket, SocketTable } from "../socket_table.ts";
import { PROBE_PERIOD_MS, type ReadyWaitSum, ReadyWaitTally } from "../ready_wait.ts";

/** SQEs a round queues before it hands them to the kernel without waiting for its end. */
const FLUSH_SQES = 16;
/** Waits refused in a row after which the loop fails (see `#fail`). */
const MAX_REFUSALS = 8;
/** The probe's user_data, low word: no socket's (theirs is a slot token below 2^24 - 1, then a kind). */
const UD_PROBE = 0xffffffff;

export class UringLoop extends SocketTable<UringSocket> implements UringSocketLoop {
  readonly ring: UringRing;
  readonly #blockMs: number;
  /** Each slot's generation: a CQE of a closed socket (its generation older) is dropped. */
  readonly #gens: number[] = [];
  #starved: UringSocket[] = [];
  #starvedAt = -1;
  tlsInfo = null;
  failure: string | null = null;
  /** Waits refused in a row (an errno other than a timeout, a signal or a full queue). */
  #refusals = 0;
  readonly #readyWait = new ReadyWaitTally();
  /** The armed probe's user_data, high word: a completion with another is an earlier pump's, dropped. */
  #probeSeq = 0;

  /** Throws when the ring cannot be made (the caller falls back to epoll with the reason). */
  constructor(readonly addr: SockAddr, readonly sys: EpollSys, blockMs: number) {
    super();
    this.#blockMs = Math.max(1, Math.min(5, Math.round(blockMs)));
    this.ring = new UringRing();
  }

  /** How long ready completions waited for the pump since the last call (transport/ready_wait.ts). */
  takeReadyWait(): ReadyWaitSum {
    return this.#readyWait.take(this.sys.nowMs());
  }

  protected open(): UringSocket | Error {
    const fd = loopSocket(this.sys, this.addr, this.closed ? "io_uring" : null);
    if (typeof fd !== "number") return fd;
    const token = this.nextToken();
    const gen = this.#gens[token] = ((this.#gens[token] ?? 0) + 1) >>> 0;
    return this.slots[token] = new UringSocket(this, fd, token, gen);
  }

  starved(sock: UringSocket): void {
    if (this.#starved.length === 0) this.#starvedAt = this.ring.buffers.buffersReturned;
    this.#starved.push(sock);
  }

  close(): void {
    if (!this.closeAll()) return;
    this.ring.enter(0, 0);
    this.ring.close();
  }

  protected pump(): void {
    this.pumpBlocking(this.#blockMs).catch(() => {});
  }

  protected pumpStarted(): void {
    this.#probeSeq = (this.#probeSeq + 1) >>> 0;
    this.#armProbe();
  }

  protected block(leftMs: number): boolean {
    this.#rearmStarved();
    // A socket on the ready list has bytes no completion will announce: submit without waiting.
    const rc = this.ring.enter(this.readyCount > 0 ? 0 : 1, leftMs);
    if (rc < 0 && rc !== -ETIME && rc !== -EINTR) {
      // One odd errno may be stale (read after the call, the thread ran on); a steady one cannot mend.
      if (rc !== -EAGAIN && rc !== -EBUSY && ++this.#refusals >= MAX_REFUSALS) this.#fail(-rc);
      return false;
    }
    this.#refusals = 0;
    return true;
  }

  protected override turnEnded(): void {
    if (!this.closed && this.ring.unsubmitted > 0) this.ring.enter(0, 0);
  }

  protected override pumpEnded(): void {
    // No pump, nothing waits: an expiry left in flight measures nothing (its completion is dropped).
    this.#probeSeq = (this.#probeSeq + 1) >>> 0;
    this.#readyWait.armed(Infinity);
  }

  /** Arms the probe through `enter`, not `submit`: a bare submit's inline completions keep the pump awake. */
  #armProbe(): void {
    if (this.closed) return;
    this.ring.prepTimeout(PROBE_PERIOD_MS, UD_PROBE, this.#probeSeq);
    this.ring.enter(0, 0);
    this.#readyWait.armed(this.sys.nowMs() + PROBE_PERIOD_MS);
  }

  /** The reaping reached the probe's completion: one wait measured, the next armed (a stale one dropped). */
  #probeReached(seq: number): void {
    if (seq !== this.#probeSeq) return;
    this.#readyWait.reached(this.sys.nowMs());
    this.#armProbe();
  }

  /** The ring refused to run: every socket is closed with the reason, which their pending calls fail with. */
  #fail(errno: number): void {
    this.failure = `io_uring_enter failed (errno ${errno})`;
    this.close();
  }

  /** Starved receives are armed again once a buffer has come back since they starved. */
  #rearmStarved(): void {
    if (this.#starved.length === 0 || this.ring.buffers.buffersReturned === this.#starvedAt) return;
    const starved = this.#starved;
    this.#starved = [];
    for (const sock of starved) sock.armReceive();
  }

  /** Hands every CQE the ring holds to its socket (a stale one's buffer straight back). */
  protected override reap(): void {
    const ring = this.ring;
    const words = ring.cqWords;
    const res = ring.cqRes;
    let head = ring.cqHead;
    while (head !== ring.cqTail && !this.closed) {
      const w = ring.cqeWord(head);
      const udLo = words[w];
      const gen = words[w + 1];
      const result = res[w + 2];
      const flags = words[w + 3];
      head = (head + 1) >>> 0;
      ring.consumed(head);
      if (udLo === UD_PROBE) {
        this.#probeReached(gen);
        continue;
      }
      const token = udLo >>> 8;
      const sock = this.slots[token];
      if (sock == null || sock.gen !== gen || sock.fd < 0) {
        if ((udLo & 0xff) === UD_RECV && (flags & 1) !== 0) ring.buffers.returnBuffer(flags >>> 16);
        continue;
      }
      const kind = udLo & 0xff;
      if (kind === UD_RECV) sock.onRecv(result, flags);
      else if (kind === UD_SEND) sock.onSend(result);
      else if (kind === UD_POLL) sock.connected();
      // A long round's sends go out every FLUSH_SQES, not all at its end: the peer works on them
      // meanwhile instead of waiting for the whole round (and for us, if the core is taken from us).
      if (ring.unsubmitted >= FLUSH_SQES) ring.submit();
    }
  }
}
