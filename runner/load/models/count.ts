/**
 * @module
 * `count`: a fixed number of requests (`-n`), closed over a shared countdown or, with a rate, paced like the
 * rate model; exactly n start unless stopped or bounded (duration, else max duration). With flows: sessions.
 */
import { MAX_DURATION_MS, MAX_DURATION_WORDS } from "../../../validation/duration.ts";
import { connectionShareIssues } from "./fields.ts";
import { defineModel } from "./model.ts";
import type { PathIssue } from "../../../validation/mod.ts";
import { type LoadContext, mayStart } from "../executor.ts";
import { constantSchedule, shareOf, slotsOf } from "../schedule.ts";
import { closedLoop, runSteeredLoops } from "../closed_loop.ts";
import { paceOnDemand } from "../lanes.ts";
import { openPoolSize } from "../pre_connect.ts";

/** How long a paced count's sends take at its rate (ms); 0 when closed (no schedule). */
export function pacedMs(c: { requests: number; ratePerSec?: number }): number {
  return c.ratePerSec ? (c.requests / c.ratePerSec) * 1000 : 0;
}

export const countModel = defineModel({
  model: "count",
  check(c) {
    // Open pacing opens its connections on demand: the segments need no fixed share of them.
    const issues: PathIssue[] = connectionShareIssues(c, c.ratePerSec === undefined);
    if (c.durationMs === undefined && pacedMs(c) > MAX_DURATION_MS) {
      issues.push({
        path: ["requests"],
        message: `${c.requests} requests at ${c.ratePerSec}/s take longer than 7 days; durations must be ` +
          `${MAX_DURATION_WORDS}: send fewer, faster, or bound the run with a duration`,
      });
    }
    if (c.ratePerSec === undefined && c.preConnect !== undefined) {
      issues.push({
        path: ["preConnect"],
        message: "preConnect applies to open pacing: give the count a ratePerSec, or drop preConnect",
      });
    }
    return issues;
  },
  poolSize: (c, worker) => (c.ratePerSec === undefined ? null : openPoolSize(c, c.ratePerSec, worker)),
  targetArrivalsPerSec: (c) => c.ratePerSec ?? null,
  maxDurationMs: (c) => c.maxDurationMs + Math.ceil(pacedMs(c)),
  // The burst never sends more than the run will: `-n 1` is not held back by 200 ms of warming.
  warmupFields: (c, burst) =>
    c.ratePerSec === undefined
      ? { connections: burst.connections, requests: c.requests, durationMs: burst.durationMs }
      : {
        requests: c.requests,
        ratePerSec: burst.ratePerSec,
        maxConnections: 64,
        durationMs: burst.durationMs,
      },
  async run(ctx): Promise<void> {
    const config = ctx.config;
    const total = config.requests;
    if (config.ratePerSec !== undefined) {
      const schedule = constantSchedule(config.ratePerSec, { count: total });
      return await paceOnDemand(ctx, schedule, config.maxConnections);
    }
    const connections = slotsOf(ctx, config.connections);
    const remaining = shareOf(total, ctx.workerIndex, ctx.workerCount);
    if (config.concurrencySteps !== undefined && !config.eachConnection) {
      const conns = Array.from({ length: connections }, () => ctx.newConnection());
      return await runSteeredLoops(ctx, conns, conns.map(() => true), { left: remaining });
    }
    // Each connection counts down its own part (k6's per-vu-iterations), else all the worker's share.
    const shared = taker(ctx, remaining), each = Math.floor(total / config.connections);
    const takeOf = () => config.eachConnection ? taker(ctx, each) : shared;
    await Promise.all(
      Array.from({ length: connections }, () => closedLoop(ctx, ctx.newConnection(), takeOf())),
    );
  },
});

/** Grants requests from a countdown of `remaining` while the run may start them. */
function taker(ctx: LoadContext, remaining: number) {
  return (depth: number, nowMs: number) => {
    if (remaining <= 0 || !mayStart(ctx, nowMs)) return 0;
    const granted = Math.min(depth, remaining);
    remaining -= granted;
    return granted;
  };
}
