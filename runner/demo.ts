/**
 * @module
 * The demo experiment, until experiment files exist: starts the built-in target in its own process
 * (pinned to CPU 0 when there are cores to spare), attacks it with a short load of each model (closed,
 * open ramp with a spike, constant throughput with CO correction, a fixed count over a mix of
 * endpoints including errors), samples the target's CPU and memory during each run, and returns one
 * results file. `quick` shortens every load for tests.
 */
import { type AttackConfigInput, parseAttackConfig } from "./config.ts";
import { type AttackProgress, runAttack } from "./attack.ts";
import type { ResultsFile, RunResult } from "../results/mod.ts";
import { buildResultsFile } from "../results/io.ts";
import { startTarget, startTelemetry } from "../targets/mod.ts";

interface DemoLoad {
  name: string;
  load: string;
  description: string;
  config: Omit<AttackConfigInput, "url">;
}

/** The loads of the demo; `scale` shrinks durations and counts. */
export function demoLoads(scale: number): DemoLoad[] {
  const ms = (n: number) => Math.max(200, Math.round(n * scale));
  return [
    {
      name: "closed-c16",
      load: "connections",
      description: "16 connections, closed loop, /json",
      config: {
        model: "connections",
        connections: 16,
        durationMs: ms(3000),
        requestMix: [{ path: "/json" }],
      },
    },
    {
      name: "open-ramp-spike",
      load: "rate",
      description: "open model: 200/s ramping to 1500/s, a 3000/s spike, back to 300/s on /json",
      config: {
        model: "rate",
        maxConnections: 200,
        phases: [
          { durationMs: ms(2000), ratePerSec: 200, rampToPerSec: 1500 },
          { durationMs: ms(500), ratePerSec: 3000 },
          { durationMs: ms(1000), ratePerSec: 300 },
        ],
        requestMix: [{ path: "/json" }],
      },
    },
    {
      name: "throughput-sleep",
      load: "throughput",
      description: "800 req/s over 20 connections on /sleep?ms=5, coordinated-omission corrected",
      config: {
        model: "throughput",
        ratePerSec: 800,
        connections: 20,
        durationMs: ms(3000),
        requestMix: [{ path: "/sleep?ms=5" }],
      },
    },
    {
      name: "count-mix",
      load: "count",
      description: "a fixed count over a mix: /json, /fib/20, a failing validation (400) and /error/1 (500)",
      config: {
        model: "count",
        requests: Math.max(200, Math.round(3000 * scale)),
        connections: 8,
        requestMix: [
          { path: "/json", weight: 6 },
          { path: "/fib/20", weight: 2 },
          { path: "/validate?id=7&name=abc", weight: 1 },
          { path: "/error/1", weight: 1 },
        ],
      },
    },
  ];
}

export interface DemoHooks {
  onRunStart?(load: DemoLoad): void;
  onProgress?(p: AttackProgress): void;
  onRunEnd?(run: RunResult): void;
  signal?: AbortSignal;
}

/** Runs the demo; the target is always stopped, also on errors and Ctrl-C. */
export async function runDemo(
  opts: { quick?: boolean; logDir?: string },
  hooks: DemoHooks = {},
): Promise<ResultsFile> {
  const pin = navigator.hardwareConcurrency >= 2 ? [0] : undefined;
  const target = await startTarget({ kind: "builtin", cpuAffinity: pin }, {
    logDir: opts.logDir,
    signal: hooks.signal,
  });
  const runs: RunResult[] = [];
  const loads = demoLoads(opts.quick ? 0.25 : 1);
  let series: RunResult["telemetry"] = [];
  try {
    for (const load of loads) {
      if (hooks.signal?.aborted) break;
      hooks.onRunStart?.(load);
      const config = parseAttackConfig({ url: target.url + "/", intervalMs: 250, ...load.config });
      const telemetry = startTelemetry(target, { intervalMs: 250 });
      await telemetry.ready;
      let attack: RunResult;
      try {
        attack = await runAttack(config, {
          name: load.name,
          onProgress: hooks.onProgress,
          signal: hooks.signal,
        });
      } finally {
        series = telemetry.stop();
      }
      const run: RunResult = { ...attack, variant: "builtin", load: load.load, telemetry: series };
      runs.push(run);
      hooks.onRunEnd?.(run);
    }
  } finally {
    await target.stop();
  }
  return buildResultsFile({
    experiment: {
      name: "loadlab demo",
      description: "The built-in Hono target under a short load of each model: " +
        loads.map((l) => `${l.name} (${l.description})`).join("; "),
      source: JSON.stringify(loads, null, 2),
    },
    runs,
  });
}
