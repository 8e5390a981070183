/**
 * @module
 * Bench (not a test): how close loadlab's coordinated-omission correction comes to the truth on this
 * machine. The freeze target (tests/fixtures/freeze_server.ts: 1 s freeze in every 5 s) under the
 * throughput model at 1000 req/s over 100 connections (or `--rate`, `--connections`) for 20 s (four whole
 * cycles), N runs; per run the
 * corrected p90/p99 against the truth (500 / 950 ms), the uncorrected ones, requests and late sends, and
 * whether the goal holds: both within 5%. Run it on an otherwise idle machine (a busy one adds its own
 * delays to every latency; tests/timing/accuracy_test.ts asserts only what holds under load). Results
 * go to docs/PERFORMANCE.md.
 *
 *   deno run -A bench/co_accuracy.ts [--runs 3] [--duration 20s] [--rate 1000] [--connections 100]
 *     [--transport deno|epoll]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { expectedCorrectedPercentileMs, startFreezeServer } from "../tests/fixtures/freeze_server.ts";

const FLAGS = [
  { long: "runs", takesValue: true, example: "3" },
  { long: "duration", short: "d", takesValue: true, example: "20s" },
  { long: "rate", short: "R", takesValue: true, example: "1000" },
  { long: "connections", short: "c", takesValue: true, example: "100" },
  { long: "transport", takesValue: true, example: "epoll" },
];
const GOAL = 0.05;

async function oneRun(durationMs: number, ratePerSec: number, connections: number, transport?: string) {
  const server = startFreezeServer({ freezeMs: 1000, everyMs: 5000 });
  try {
    const run = await runAttack(parseAttackConfig({
      url: server.url,
      model: "throughput",
      ratePerSec,
      durationMs,
      connections,
      timeoutMs: 5_000,
      ...(transport ? { transport: transport as "auto" | "deno" | "epoll" } : {}),
    }));
    const err = (value: number, truth: number) => Math.abs(value - truth) / truth;
    const e90 = err(run.latencyMs.p90, expectedCorrectedPercentileMs(90));
    const e99 = err(run.latencyMs.p99, expectedCorrectedPercentileMs(99));
    return {
      p90: run.latencyMs.p90,
      p99: run.latencyMs.p99,
      errorP90Pct: +(e90 * 100).toFixed(2),
      errorP99Pct: +(e99 * 100).toFixed(2),
      uncorrectedP90: run.uncorrectedLatencyMs!.p90,
      uncorrectedP99: run.uncorrectedLatencyMs!.p99,
      requests: run.requests,
      lateSends: run.lateSends,
      goal: e90 <= GOAL && e99 <= GOAL,
    };
  } finally {
    await server.close();
  }
}

if (import.meta.main) {
  const flags = new FlagValues(tokenize(Deno.args, FLAGS, {}, "co_accuracy"), FLAGS);
  const runs = flags.positiveInt("runs") ?? 3;
  const durationMs = flags.positiveDurationMs("duration") ?? 20_000;
  const ratePerSec = flags.positiveInt("rate") ?? 1000;
  const connections = flags.positiveInt("connections") ?? 100;
  const transport = flags.text("transport");
  if (durationMs % 5000 !== 0) {
    console.log("note: the truth holds for whole 5 s cycles; use a multiple of 5s");
  }
  console.log(
    `CO accuracy: ${runs} runs x ${durationMs / 1000} s at ${ratePerSec} req/s over ${connections} ` +
      `connections, transport ${transport ?? "auto"}, ${navigator.hardwareConcurrency} cores, ` +
      `load average ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
  );
  console.log("run  p90 ms (err%)    p99 ms (err%)    uncorrected p90/p99  requests  late   goal (5%)");
  const rows = [];
  for (let i = 0; i < runs; i++) {
    const r = await oneRun(durationMs, ratePerSec, connections, transport);
    rows.push(r);
    console.log(
      `${String(i + 1).padEnd(4)} ${`${r.p90} (${r.errorP90Pct})`.padEnd(17)}${
        `${r.p99} (${r.errorP99Pct})`.padEnd(17)
      }` +
        `${`${r.uncorrectedP90}/${r.uncorrectedP99}`.padEnd(21)}${String(r.requests).padEnd(10)}` +
        `${String(r.lateSends).padEnd(7)}${r.goal ? "met" : "MISSED"}`,
    );
  }
  const met = rows.filter((r) => r.goal).length;
  console.log(`goal met in ${met} of ${runs} runs`);
}
