/**
 * @module
 * `connections` — the closed model (autocannon / oha `-c`): this worker's share of the connections
 * each sends the next request as soon as the previous response has ended, until the end of the run.
 * The intended send time is the actual one, so latency here is service time as seen by one user.
 * With flows each connection runs sessions back to back.
 */
import { connections, connectionShareIssues, DEFAULT_DURATION_MS, durationMs } from "./fields.ts";
import { defineModel } from "./model.ts";
import { slotsOf } from "../schedule.ts";
import { closedLoopOf } from "../closed_loop.ts";
import { runSteeredLoops } from "../steer_closed.ts";
import { nextTurn } from "../clock.ts";
import type { LoadConnection } from "../../http/load_connection.ts";

/**
 * Connects started per event-loop turn when a crowd opens: on a busy core one connect takes the kernel
 * 300-500 us, so 20,000 started in one turn kept the event loop for 6-10 s, and the first ones passed
 * their timeout with the kernel done and their readiness never read. A turn between slices lets the
 * transport take what has connected; a crowd of 50 opens in one turn as before.
 */
const CONNECTS_PER_TURN = 256;

/**
 * Starts opening every connection, a slice a turn: each one's promise of whether it opened, the later
 * slices' connects issued as the turns come (one promise each while it waits for its turn).
 */
function openInSlices(conns: LoadConnection[]): Promise<boolean>[] {
  const opening: Promise<boolean>[] = [];
  let turn: Promise<void> = Promise.resolve();
  for (let i = 0; i < conns.length; i++) {
    const conn = conns[i];
    if (i > 0 && i % CONNECTS_PER_TURN === 0) turn = turn.then(nextTurn);
    opening.push(i < CONNECTS_PER_TURN ? conn.open() : turn.then(() => conn.open()));
  }
  return opening;
}

export const connectionsModel = defineModel({
  model: "connections",
  fields: { connections, durationMs: durationMs.default(DEFAULT_DURATION_MS) },
  keepsUncorrected: false,
  check: (c) => connectionShareIssues(c),
  poolSize: () => null,
  targetArrivalsPerSec: () => null,
  measuredDurationMs: (c) => c.durationMs,
  warmupFields: (_c, burst) => ({ connections: burst.connections, durationMs: burst.durationMs }),
  async run(ctx): Promise<void> {
    const count = slotsOf(ctx, ctx.config.connections);
    const loop = closedLoopOf(ctx);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Like wrk, each connection starts its loop as soon as it is open (still after t0: connects belong
    // to the run), so a crowd of 20,000 sends from its first connection on instead of after 1.75 s of
    // connects, the report saying when the whole crowd was open (results/conclude/crowd_opening.ts). On
    // the deno transport a connect issued while the others are busy is starved until the traffic stops
    // (with -c 5000 on a busy machine a third never opened in 8 s: docs/lab/PERFORMANCE_NOTES.md, "Held
    // load"), so there every connection opens before the first send. A failed connect is counted here
    // and retried by its loop after the usual pause. Arrivals that are sessions or connections of their
    // own (per-arrival) open as they go.
    const opened = ctx.arrival !== null
      ? conns.map(() => true)
      : ctx.shared.connectsBesideTraffic
      ? openInSlices(conns)
      : await Promise.all(openInSlices(conns));
    // Steering may add, retire, pause and resume connections (steer_closed.ts).
    await runSteeredLoops(ctx, conns, opened, loop);
  },
});
