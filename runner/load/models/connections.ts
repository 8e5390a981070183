/**
 * @module
 * `connections` — the closed model (autocannon / oha `-c`): this worker's share of the connections
 * each sends the next request as soon as the previous response has ended, until the end of the run.
 * The intended send time is the actual one, so latency here is service time as seen by one user.
 * With flows each connection runs sessions back to back.
 */
import { connections, connectionShareIssues, DEFAULT_DURATION_MS, durationMs } from "./fields.ts";
import { defineModel } from "./model.ts";
import { shareOf } from "../schedule.ts";
import { closedLoopOf } from "../closed_loop.ts";
import { runSteeredLoops } from "../steer_closed.ts";

export const connectionsModel = defineModel({
  model: "connections",
  fields: { connections, durationMs: durationMs.default(DEFAULT_DURATION_MS) },
  pacing: () => "closed",
  keepsUncorrected: false,
  check: (c) => connectionShareIssues(c),
  poolSize: () => null,
  targetArrivalsPerSec: () => null,
  measuredDurationMs: (c) => c.durationMs,
  warmupFields: (_c, burst) => ({ connections: burst.connections, durationMs: burst.durationMs }),
  async run(ctx): Promise<void> {
    const count = ctx.streamsPerConnection *
      shareOf(ctx.config.connections, ctx.workerIndex, ctx.workerCount);
    const loop = closedLoopOf(ctx);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Every connection opens before the first send (still after t0: connects belong to the run). On the
    // deno transport a connect issued while the others are busy is starved until the traffic stops: with
    // -c 5000 on a busy machine a third never opened in 8 s (docs/lab/PERFORMANCE_NOTES.md, "Held
    // load"). A failed connect is counted here and retried by its loop after the usual pause. Arrivals
    // that are sessions or connections of their own (per-arrival) open as they go.
    const opened = ctx.arrival === null
      ? await Promise.all(conns.map((conn) => conn.open()))
      : conns.map(() => true);
    // Steering may add, retire, pause and resume connections (steer_closed.ts).
    await runSteeredLoops(ctx, conns, opened, loop);
  },
});
