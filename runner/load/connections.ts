/**
 * @module
 * `connections` — the closed model (autocannon / oha `-c`): this worker's share of the connections
 * each sends the next request as soon as the previous response has ended, until the end of the run.
 * The intended send time is the actual one, so latency here is service time as seen by one user.
 */
import { type Executor, type LoadContext, mayStart } from "./executor.ts";
import { shareOf } from "./schedule.ts";
import { sleepMs } from "./clock.ts";
import type { Connection } from "../http/connection.ts";

/** Pause after a failed connect so a down target costs a count, not a spinning core. */
const CONNECT_BACKOFF_MS = 10;

/** Runs one connection closed-loop while `take(depth)` grants requests; shared with `count`. */
export async function closedLoop(
  ctx: LoadContext,
  conn: Connection,
  take: (depth: number) => number,
): Promise<void> {
  const depth = ctx.config.pipelining;
  while (true) {
    const granted = take(depth);
    if (granted === 0) return;
    const done = await conn.exchange(performance.now(), granted);
    if (done === 0 && !conn.isOpen) await sleepMs(CONNECT_BACKOFF_MS);
  }
}

export const connectionsExecutor: Executor = {
  model: "connections",
  async run(ctx: LoadContext): Promise<void> {
    const count = shareOf(ctx.config.connections, ctx.workerIndex, ctx.workerCount);
    const take = (depth: number) => (mayStart(ctx) ? depth : 0);
    await Promise.all(Array.from({ length: count }, () => closedLoop(ctx, ctx.newConnection(), take)));
  },
};
