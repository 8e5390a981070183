/**
 * @module
 * Connections that wait for work: the open models hand intended send times to lanes instead of
 * letting each connection run its own clock. A lane is one connection plus a loop that takes the next
 * time from its queue, sends, and parks when there is nothing to do. `SharedLanes` (rate, open count)
 * keep one queue and open lanes on demand up to a bound; when all are busy a send waits (counted
 * late) and is dropped once it is older than the bound. `FixedLanes` (throughput) give each
 * connection its own queue, as wrk2 does, so a slow response delays only that connection's next
 * sends, and their latency still counts from the intended time. With flows a send is a session and
 * holds its lane until the session ends (think times included), as a virtual user holds its connection.
 */
import type { Connection } from "../http/connection.ts";
import type { LoadContext } from "./executor.ts";
import { TimeQueue } from "./time_queue.ts";

class Lane {
  parked = false;
  #wake: (() => void) | null = null;
  readonly done: Promise<void>;

  constructor(
    readonly conn: Connection,
    readonly queue: TimeQueue,
    readonly owner: { finished: boolean; dropAfterMs: number | null; onPark(lane: Lane): void },
    readonly ctx: LoadContext,
  ) {
    this.done = this.#loop();
  }

  wake(): void {
    this.parked = false;
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  async #loop(): Promise<void> {
    const { recorder } = this.ctx.shared;
    while (true) {
      if (this.queue.length === 0) {
        if (this.owner.finished || this.ctx.stopRequested) return;
        this.parked = true;
        this.owner.onPark(this);
        await new Promise<void>((resolve) => this.#wake = resolve);
        continue;
      }
      const intendedMs = this.queue.shift();
      if (this.ctx.stopRequested) continue;
      const dropAfterMs = this.owner.dropAfterMs;
      // Past the graceful stop the backlog can no longer be sent in time: it is dropped, counted.
      if (
        this.ctx.shared.stopping || (dropAfterMs !== null && performance.now() - intendedMs > dropAfterMs)
      ) {
        recorder.droppedSend(performance.now());
        continue;
      }
      const arrival = this.ctx.arrival;
      await (arrival === null ? this.conn.exchange(intendedMs, 1) : arrival(this.conn, intendedMs));
    }
  }
}

/** One queue, lanes opened on demand up to `maxLanes` (rate model, open count). */
export class SharedLanes {
  finished = false;
  readonly #queue = new TimeQueue();
  readonly #lanes: Lane[] = [];
  readonly #parked: Lane[] = [];

  constructor(readonly ctx: LoadContext, readonly maxLanes: number, readonly dropAfterMs: number | null) {}

  onPark(lane: Lane): void {
    this.#parked.push(lane);
  }

  /** Queues a send and wakes or opens a lane for it; counts it late when none is free. */
  dispatch(intendedMs: number, late: boolean): void {
    this.#queue.push(intendedMs);
    let lane = this.#parked.pop();
    while (lane && !lane.parked) lane = this.#parked.pop();
    if (lane) lane.wake();
    else if (this.#lanes.length < this.maxLanes) {
      this.#lanes.push(new Lane(this.ctx.newConnection(), this.#queue, this, this.ctx));
    } else late = true;
    if (late) this.ctx.shared.recorder.lateSend(performance.now());
  }

  /** No more sends: lanes finish their queue and end. */
  async finish(): Promise<void> {
    this.finished = true;
    for (const lane of this.#lanes) lane.wake();
    await Promise.all(this.#lanes.map((l) => l.done));
  }
}

/** A fixed set of lanes, each with its own queue (throughput model). */
export class FixedLanes {
  finished = false;
  readonly dropAfterMs = null;
  readonly #lanes: Lane[];
  #next = 0;

  constructor(readonly ctx: LoadContext, count: number) {
    this.#lanes = Array.from(
      { length: count },
      () => new Lane(ctx.newConnection(), new TimeQueue(), this, ctx),
    );
  }

  onPark(): void {}

  /** Round-robin over the lanes, so each connection runs at rate / connections. */
  dispatch(intendedMs: number, late: boolean): void {
    const lane = this.#lanes[this.#next];
    this.#next = this.#next + 1 === this.#lanes.length ? 0 : this.#next + 1;
    lane.queue.push(intendedMs);
    if (lane.parked) lane.wake();
    if (late) this.ctx.shared.recorder.lateSend(performance.now());
  }

  async finish(): Promise<void> {
    this.finished = true;
    for (const lane of this.#lanes) lane.wake();
    await Promise.all(this.#lanes.map((l) => l.done));
  }
}
