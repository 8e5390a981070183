/**
 * Target CPU per request over several runs, for the preset tests whose finding is about what a request costs
 * the server. On a machine whose cores are shared with other work a short run's req/s swings with the CPU
 * share the target happens to get, while the CPU time it spent per request counts only its own work, so a
 * comparison of costs made on it does not flip with the machine's load.
 */
import assert from "node:assert/strict";
import type { RunResult } from "../../results/mod.ts";
import { targetCpuUsPerRequest } from "../../results/conclude/telemetry_digest.ts";

/** Target CPU ms per request over runs: each run's (after its warm-up) weighted by its measured requests. */
export function cpuMsPerRequest(runs: RunResult[]): number {
  let cpuUs = 0, requests = 0;
  for (const run of runs) {
    const perRequestUs = targetCpuUsPerRequest(run);
    if (Number.isFinite(perRequestUs)) cpuUs += perRequestUs * run.requests;
    requests += run.requests;
  }
  assert.ok(cpuUs > 0 && requests > 0, `target CPU telemetry recorded in ${runs.map((r) => r.name)}`);
  return cpuUs / requests / 1000;
}
