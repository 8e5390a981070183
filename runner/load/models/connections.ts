/**
 * @module
 * `connections`: the closed model (autocannon / oha `-c`): each of this worker's connections sends again as
 * soon as its response ended, until the run's end; with flows each runs sessions back to back.
 */
import { connectionShareIssues } from "./fields.ts";
import { OPTIONS } from "../../config_fields.ts";
import { defineModel } from "./model.ts";
import { slotsOf } from "../schedule.ts";
import { runSteeredLoops } from "../closed_loop.ts";
import { nextTurn } from "../clock.ts";
import type { LoadConnection } from "../../http/load_connection.ts";

/** Connects started per turn when a crowd opens: a busy kernel takes 300-500 us each (256: ~0.1 s). */
const CONNECTS_PER_TURN = 256;

/** Starts opening every connection a slice a turn: each one's promise of whether it opened. */
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
  fields: { connections: OPTIONS.connections.schema, durationMs: OPTIONS.durationMs.schema },
  check: (c) => connectionShareIssues(c),
  poolSize: () => null,
  targetArrivalsPerSec: () => null,
  measuredDurationMs: (c) => c.durationMs,
  warmupFields: (_c, burst) => ({ connections: burst.connections, durationMs: burst.durationMs }),
  async run(ctx): Promise<void> {
    const count = slotsOf(ctx, ctx.config.connections);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Like wrk, each connection starts its loop once open (after t0: connects belong to the run). On the
    // deno transport connects issued beside traffic starve (docs/lab/PERFORMANCE_NOTES.md, "Held load"),
    // so there all open before the first send. Per-arrival connections open as they go.
    const opened = ctx.arrival !== null
      ? conns.map(() => true)
      : ctx.shared.connectsBesideTraffic
      ? openInSlices(conns)
      : await Promise.all(openInSlices(conns));
    await runSteeredLoops(ctx, conns, opened);
  },
});
