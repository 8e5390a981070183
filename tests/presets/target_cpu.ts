/**
 * Target CPU per request from a run's process telemetry, for the preset tests whose finding is about what a
 * request costs the server. On a machine whose cores are shared with other work a short run's req/s swings
 * with the CPU share the target happens to get, while the CPU time it spent per request counts only its own
 * work, so a comparison of costs made on it does not flip with the machine's load.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../results/mod.ts";

/**
 * Target CPU ms per request over runs: the "target" process's CPU samples after the warm-up over the measured
 * requests.
 */
export function cpuMsPerRequest(runs: RunResult[]): number {
  let cpuMs = 0, requests = 0;
  for (const run of runs) {
    const samples = run.telemetry?.find((t) => t.name === "target")?.samples ?? [];
    const warmupMs = run.warmupSec * 1000, endMs = warmupMs + run.durationSec * 1000;
    let prevMs = 0;
    for (const s of samples) {
      const spanMs = s.tMs - prevMs;
      prevMs = s.tMs;
      if (s.tMs > warmupMs && s.tMs <= endMs + spanMs && typeof s.cpuPercent === "number") {
        cpuMs += (s.cpuPercent / 100) * spanMs;
      }
    }
    requests += run.requests;
  }
  assert.ok(cpuMs > 0 && requests > 0, `target CPU telemetry recorded in ${runs.map((r) => r.name)}`);
  return cpuMs / requests;
}
