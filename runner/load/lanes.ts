/**
 * @module
 * Connections that wait for work: open models hand intended send times to lanes (a connection and a loop).
 * On demand (`SharedLanes`), a send finding none free is server-bound (`whenBusy: drop`: dropped), one the
 * isolate was late for is late and opens none; both drop past the late bound, and one finding its phase's
 * `maxBusy` in flight is dropped.
 */
import type { LoadConnection } from "../http/load_connection.ts";
import type { LoadContext } from "./executor.ts";
import { pace } from "./pacer.ts";
import { type Schedule, shareOf } from "./schedule.ts";
import type { Phase } from "../config_fields.ts";

/** Sends one worker keeps waiting at most (~1 MB of times): beyond it a send is dropped and counted. */
const MAX_QUEUED_SENDS = 100_000;

/** Intended send times (ms) in a growable ring buffer: no object allocated per queued send. */
class TimeQueue {
  #items = new Float64Array(64);
  #head = 0;
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(timeMs: number): void {
    if (this.#length === this.#items.length) this.#grow();
    this.#items[(this.#head + this.#length) % this.#items.length] = timeMs;
    this.#length++;
  }

  /** The oldest time, or NaN when empty. */
  shift(): number {
    if (this.#length === 0) return NaN;
    const t = this.#items[this.#head];
    this.#head = (this.#head + 1) % this.#items.length;
    this.#length--;
    return t;
  }

  #grow(): void {
    const next = new Float64Array(this.#items.length * 2);
    for (let k = 0; k < this.#length; k++) next[k] = this.#items[(this.#head + k) % this.#items.length];
    this.#items = next;
    this.#head = 0;
  }
}

/** The lanes of one load, as each lane sees them; `finish` ends them once no more sends come. */
abstract class LaneOwner {
  finished = false;
  protected lanes: Lane[] = [];
  abstract readonly dropAfterMs: number | null;
  /** Drop what is still queued once the load's time is up (throughput) instead of sending it late. */
  abstract readonly dropAtEnd: boolean;
  /** Absent: the owner's lanes keep their own queues (a send wakes its lane) and open none on demand. */
  onPark?(lane: Lane): void;
  onConnected?(): void;

  /** No more sends: lanes finish their queue and end. */
  async finish(): Promise<void> {
    this.finished = true;
    for (const lane of this.lanes) lane.wake();
    await Promise.all(this.lanes.map((l) => l.done));
  }
}

class Lane {
  parked = false;
  #wake: (() => void) | null = null;
  readonly done: Promise<void>;

  /** `connectFirst`: open the connection before taking work (a lane opened on demand, keep-alive). */
  constructor(
    readonly conn: LoadConnection,
    readonly queue: TimeQueue,
    readonly owner: LaneOwner,
    readonly ctx: LoadContext,
    connectFirst = false,
  ) {
    this.done = connectFirst ? this.#connect().then(() => this.#loop()) : this.#loop();
  }

  wake(): void {
    this.parked = false;
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  /** A failed connect is counted by `open`; the loop then retries it with its first send. */
  async #connect(): Promise<void> {
    await this.conn.open();
    this.owner.onConnected?.();
  }

  async #loop(): Promise<void> {
    const { recorder } = this.ctx.shared;
    while (true) {
      if (this.queue.length === 0) {
        if (this.owner.finished || this.ctx.stopRequested) return;
        this.parked = true;
        this.owner.onPark?.(this);
        await new Promise<void>((resolve) => this.#wake = resolve);
        continue;
      }
      const intendedMs = this.queue.shift();
      if (this.ctx.stopRequested) continue;
      const dropAfterMs = this.owner.dropAfterMs;
      // Throughput (wrk2) drops, counted, a backlog still queued at the load's end (the window has no room
      // for it) and a warm-up send still queued at t0; the rate model's late sends still go.
      const nowMs = performance.now();
      const t0 = this.ctx.startMs + this.ctx.config.warmupMs;
      if (this.owner.dropAtEnd && intendedMs < t0 && nowMs >= t0) continue;
      if (
        this.ctx.shared.stopping || (this.owner.dropAtEnd && nowMs >= this.ctx.endMs) ||
        (dropAfterMs !== null && nowMs - intendedMs > dropAfterMs)
      ) {
        recorder.droppedSend(performance.now(), intendedMs);
        continue;
      }
      const arrival = this.ctx.arrival;
      await (arrival === null ? this.conn.exchange(intendedMs, 1) : arrival(this.conn, intendedMs));
    }
  }
}

/** One queue, lanes opened on demand up to `maxLanes` (rate model, open count). */
class SharedLanes extends LaneOwner {
  readonly #queue = new TimeQueue();
  readonly #parked: Lane[] = [];
  /** Lanes opened on demand whose connect has not ended yet: they will serve the queue. */
  #connecting = 0;
  /** Keep-alive: a new lane connects before it takes work; per-arrival lanes connect per send. */
  readonly #keepAlive: boolean;
  readonly dropAtEnd = false;

  constructor(readonly ctx: LoadContext, readonly maxLanes: number, readonly dropAfterMs: number | null) {
    super();
    this.#keepAlive = ctx.config.connection === "keep-alive";
    this.lanes = ctx.pool.slice(0, maxLanes).map((conn) => new Lane(conn, this.#queue, this, ctx));
  }

  override onPark(lane: Lane): void {
    this.#parked.push(lane);
  }

  override onConnected(): void {
    this.#connecting--;
  }

  /** Queues a send and wakes or opens a lane for it; counts it late or server-bound when it must wait. */
  dispatch(intendedMs: number, late: boolean, maxBusy = Infinity): void {
    let busy = 0;
    for (let k = 0; maxBusy < Infinity && k < this.lanes.length; k++) busy += this.lanes[k].parked ? 0 : 1;
    const full = this.#queue.length >= MAX_QUEUED_SENDS || busy >= maxBusy;
    let lane = full ? undefined : this.#parked.pop();
    while (lane && !lane.parked) lane = this.#parked.pop();
    const drop = this.ctx.config.whenBusy === "drop";
    if (full || drop && !lane) {
      this.ctx.shared.recorder.droppedSend(performance.now(), intendedMs);
      // As k6's arrival rates: one lane at a time opens, for the sends after the one dropped.
      if (drop && this.#connecting === 0 && this.lanes.length < this.maxLanes) this.#open();
      return;
    }
    this.#queue.push(intendedMs);
    let waits = false;
    if (lane) lane.wake();
    else if (this.#queue.length > this.#connecting && (!late || !this.#keepAlive)) {
      // Every lane busy and the connects under way do not cover the queue: open one if allowed, but not
      // for a send the isolate dispatched late (docs/lab/PERFORMANCE_NOTES.md, "Open-model start-up").
      if (this.lanes.length < this.maxLanes && this.ctx.shared.connectGate.hasRoom) this.#open();
      else waits = true;
    }
    if (late) this.ctx.shared.recorder.lateSend(performance.now());
    else if (waits) this.ctx.shared.recorder.serverBoundSend(performance.now());
  }

  #open(): void {
    if (this.#keepAlive) this.#connecting++;
    this.lanes.push(new Lane(this.ctx.newConnection(), this.#queue, this, this.ctx, this.#keepAlive));
  }
}

/** Paces `schedule` onto lanes opened on demand, within this worker's share of each cap. */
export async function paceOnDemand(
  ctx: LoadContext,
  schedule: Schedule,
  maxConnections: number,
  phases: readonly Phase[] = [],
): Promise<void> {
  const share = (n: number) => ctx.streamsPerConnection * shareOf(n, ctx.workerIndex, ctx.workerCount);
  const lanes = new SharedLanes(ctx, Math.max(1, share(maxConnections)), ctx.config.lateBoundMs);
  // Each phase's share of its maxBusy, by the ms its phase ends.
  let endMs = ctx.startMs, at = 0;
  const caps = phases.map((p) => [endMs += p.durationMs, p.maxBusy ? share(p.maxBusy) : Infinity]);
  await pace(ctx, schedule, (t, late) => {
    while (at < caps.length - 1 && t >= caps[at][0]) at++;
    lanes.dispatch(t, late, caps[at]?.[1]);
  });
  await lanes.finish();
}

/** A fixed set of lanes, each with its own queue as wrk2's (throughput); pre-connected ones first. */
export class FixedLanes extends LaneOwner {
  readonly dropAfterMs = null;
  readonly dropAtEnd = true;
  #next = 0;
  /** Each lane's share of `MAX_QUEUED_SENDS`. */
  readonly #maxQueued: number;

  constructor(readonly ctx: LoadContext, count: number) {
    super();
    this.#maxQueued = Math.max(64, Math.floor(MAX_QUEUED_SENDS / count));
    this.lanes = Array.from(
      { length: count },
      (_, k) => new Lane(ctx.pool[k] ?? ctx.newConnection(), new TimeQueue(), this, ctx),
    );
  }

  /** Round-robin over the lanes; a send whose lane is busy waits (server-bound unless we were late). */
  dispatch(intendedMs: number, late: boolean): void {
    const lane = this.lanes[this.#next];
    this.#next = this.#next + 1 === this.lanes.length ? 0 : this.#next + 1;
    const busy = !lane.parked;
    if (lane.queue.length >= this.#maxQueued) {
      this.ctx.shared.recorder.droppedSend(performance.now());
      return;
    }
    lane.queue.push(intendedMs);
    if (!busy) lane.wake();
    if (late) this.ctx.shared.recorder.lateSend(performance.now());
    else if (busy) this.ctx.shared.recorder.serverBoundSend(performance.now());
  }
}
