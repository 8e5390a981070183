/**
 * @module
 * `connections`: the closed model (`-c`): each connection sends again once its response ended.
 */
import { connectionShareIssues } from "./fields.ts";
import { defineModel } from "./model.ts";
import { slotsOf } from "../schedule.ts";
import { runSteeredLoops } from "../closed_loop.ts";
import { nextTurn } from "../clock.ts";
import { type LoadContext, mayStart } from "../executor.ts";
import type { LoadConnection } from "../../http/load_connection.ts";

/** Connects started per turn when a crowd opens: a busy kernel takes 300-500 us each (256: ~0.1 s). */
const CONNECTS_PER_TURN = 256;

/** Starts opening every connection a slice a turn: each one's promise of whether it opened. */
function openInSlices(conns: LoadConnection[]): Promise<boolean>[] {
  let turn: Promise<void> = Promise.resolve();
  return conns.map((conn, i) => {
    if (i > 0 && i % CONNECTS_PER_TURN === 0) turn = turn.then(nextTurn);
    return i < CONNECTS_PER_TURN ? conn.open() : turn.then(() => conn.open());
  });
}

/** Whether the crowd sends: at once, or on the deno transport once its connects all ended before the end. */
async function crowdSends(ctx: LoadContext, opening: Array<boolean | Promise<boolean>>): Promise<boolean> {
  if (ctx.arrival !== null || ctx.shared.connectsBesideTraffic) return true;
  let ended = false;
  const all = Promise.all(opening).then(() => ended = true);
  while (!ended && mayStart(ctx, performance.now())) {
    await Promise.race([all, ctx.steer.waitChange(ctx.endMs)]);
  }
  return ended;
}

export const connectionsModel = defineModel({
  model: "connections",
  check: (c) => connectionShareIssues(c),
  warmupFields: (_c, burst) => ({ connections: burst.connections, durationMs: burst.durationMs }),
  async run(ctx): Promise<void> {
    const count = slotsOf(ctx, ctx.config.connections);
    const conns = Array.from({ length: count }, () => ctx.newConnection());
    // Like wrk, each connection starts its loop once open (after t0: connects belong to the run). On the
    // deno transport connects issued beside traffic starve (docs/lab/PERFORMANCE_NOTES.md, "Held load"), so
    // the whole crowd opens first, by the load's end or never. Per-arrival connections open as they go.
    const opened = ctx.arrival !== null ? conns.map(() => true) : openInSlices(conns);
    if (await crowdSends(ctx, opened)) await runSteeredLoops(ctx, conns, opened);
  },
});
