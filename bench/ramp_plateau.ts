/**
 * @module
 * Does ramping cost the steady part anything? Runs, in turn, a fixed closed load (`-c N`) and ramping
 * connections that reach N in a second and hold it (`--stages 1s:N,Ds:N`) against nginx pinned to CPU 0
 * (this process, and so its workers, pinned to CPU 1 by the caller's `taskset`), and compares the two over
 * the same plateau window (1 s to the end): req/s from the intervals, and the process's CPU time per
 * request over that window (all workers: they are isolates of this process). Rounds alternate A/B so drift on
 * a shared machine hits both; the medians and each round's ratio are printed with the load average. It
 * measures and reports, never asserts.
 *
 *   taskset -c 1 deno run -A bench/ramp_plateau.ts [--connections 50] [--seconds 6] [--rounds 6] [--step]
 *
 * `--step` opens the ramping model's connections all at once (a 1 ms first stage) instead of over 1 s: what
 * is left of a difference then is the model's code, not connections that started apart.
 */
import process from "node:process";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import type { RunResult } from "../results/mod.ts";
import { findProgram } from "../system/path_lookup.ts";
import { startNginx } from "./nginx.ts";
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";

const INTERVAL_MS = 500;
const RAMP_MS = 1_000;

interface Sample {
  rps: number;
  cpuUsPerRequest: number;
}

/** One run: its plateau req/s (intervals from RAMP_MS on) and the process's CPU per request. */
async function measure(
  url: string,
  ramp: boolean,
  connections: number,
  plateauMs: number,
  step = false,
): Promise<Sample> {
  // `step`: all connections at once (a 1 ms first stage), held until the plateau: the model's own code
  // without the staggered start of a ramp.
  const first = step
    ? [{ durationMs: 1, target: connections }, { durationMs: RAMP_MS - 1, target: connections }]
    : [{ durationMs: RAMP_MS, target: connections }];
  const config = parseAttackConfig(
    ramp
      ? {
        url,
        model: "ramping-connections",
        stages: [...first, { durationMs: plateauMs, target: connections }],
        intervalMs: INTERVAL_MS,
      }
      : { url, model: "connections", connections, durationMs: RAMP_MS + plateauMs, intervalMs: INTERVAL_MS },
  );
  // The process's CPU time over the plateau window only, read by timers set from the schedule's start.
  const marks: Array<{ user: number; system: number }> = [];
  const timers: Array<ReturnType<typeof setTimeout>> = [];
  const onStart = (startAtEpochMs: number) => {
    for (const atMs of [RAMP_MS, RAMP_MS + plateauMs]) {
      timers.push(setTimeout(() => marks.push(process.cpuUsage()), startAtEpochMs + atMs - Date.now()));
    }
  };
  const run: RunResult = await runAttack(config, { onStart });
  timers.forEach(clearTimeout);
  const cpuUs = marks.length === 2 ? marks[1].user + marks[1].system - marks[0].user - marks[0].system : NaN;
  const plateau = run.intervals.filter((iv) =>
    iv.startMs >= RAMP_MS && iv.durationMs === INTERVAL_MS && iv.startMs + INTERVAL_MS <= RAMP_MS + plateauMs
  );
  const requests = plateau.reduce((sum, iv) => sum + iv.requests, 0);
  return {
    rps: requests / (plateau.length * INTERVAL_MS / 1000),
    cpuUsPerRequest: cpuUs / Math.max(1, requests),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const SPECS = [
  { long: "connections", takesValue: true, example: "50" },
  { long: "seconds", takesValue: true, example: "6" },
  { long: "rounds", takesValue: true, example: "6" },
  { long: "step", takesValue: false },
];
const flags = new FlagValues(tokenize(Deno.args, SPECS, {}, "bench"), SPECS);
const connections = flags.positiveInt("connections") ?? 50;
const plateauMs = (flags.positiveInt("seconds") ?? 6) * 1000;
const rounds = flags.positiveInt("rounds") ?? 6;
const step = flags.has("step");
const nginxPath = findProgram("nginx");
if (nginxPath === null) throw new Error("nginx is not on PATH");
const nginx = await startNginx(nginxPath, ["taskset", "-c", "0"]);
try {
  await measure(`${nginx.url}/`, false, connections, 1_000); // warm both paths once
  await measure(`${nginx.url}/`, true, connections, 1_000);
  const ratios: number[] = [], cpuRatios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const fixed = await measure(`${nginx.url}/`, false, connections, plateauMs);
    const ramp = await measure(`${nginx.url}/`, true, connections, plateauMs, step);
    ratios.push(ramp.rps / fixed.rps);
    cpuRatios.push(ramp.cpuUsPerRequest / fixed.cpuUsPerRequest);
    console.log(
      `round ${round}: fixed ${fixed.rps.toFixed(0)} req/s ${fixed.cpuUsPerRequest.toFixed(1)} us/req | ` +
        `ramp ${ramp.rps.toFixed(0)} req/s ${ramp.cpuUsPerRequest.toFixed(1)} us/req | ` +
        `ratio ${(ramp.rps / fixed.rps).toFixed(3)}`,
    );
  }
  console.log(
    `median plateau req/s ratio (ramp/fixed) ${median(ratios).toFixed(3)}; ` +
      `median CPU/request ratio ${median(cpuRatios).toFixed(3)}; load average ${
        Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
      }`,
  );
} finally {
  await nginx.stop();
}
