/**
 * @module
 * One run's target telemetry boiled down to what limited it; null fields were not sampled. Pure.
 */
import type { RunResult, TelemetrySeries } from "../mod.ts";
import { sendsOf } from "./responses.ts";
import { generatorSaturation } from "./generator_saturation.ts";
import { meanOf } from "../stats.ts";

export type TelemetryDigest = ReturnType<typeof digestRun>;

/** The profiler's catch-all for time in native code it cannot attribute: not a function to name. */
const UNATTRIBUTED = "(program)";

/** The hottest function of the run's profiles: its name, where it is ("" for a built-in), share, process. */
function profileTop(run: RunResult) {
  const tops = (run.profiles ?? []).flatMap((p) => {
    const s = p.summary;
    const busyUs = s ? s.durationUs - s.idleUs : 0;
    if (!s || busyUs <= 0) return [];
    const top = [...s.top].filter((t) => s.frames[t.frame]?.name !== UNATTRIBUTED)
      .sort((a, b) => b.selfUs - a.selfUs)[0];
    if (!top) return [];
    const frame = s.frames[top.frame];
    const where = frame.url ? `${frame.url}:${frame.line}` : "";
    const name = frame.name || "(anonymous)", sharePct = (top.selfUs / busyUs) * 100;
    return [{ name, where, sharePct, process: p.process }];
  });
  return tops.sort((a, b) => b.sharePct - a.sharePct)[0] ?? null;
}

function seriesMean(
  series: TelemetrySeries,
  key: "cpuPercent" | "loopP99Ms" | "opsPerSec" | "runQueueWaitPct",
): number | null {
  return meanOf(series.samples.flatMap((s) => typeof s[key] === "number" ? [s[key] as number] : []));
}

function busiest(series: TelemetrySeries[], key: "cpuPercent" | "loopP99Ms") {
  let best: { name: string; value: number } | null = null;
  for (const s of series) {
    const value = seriesMean(s, key);
    if (value !== null && (best === null || value > best.value)) best = { name: s.name, value };
  }
  return best;
}

function gcMsPerSec(series: TelemetrySeries[]): number | null {
  let ms = 0, spanMs = 0, seen = false;
  for (const s of series) {
    const samples = s.samples;
    if (!samples.some((x) => x.gc)) continue;
    seen = true;
    // Each sample holds the pauses of the tick that ended at it: the first one's lie before the span.
    for (const x of samples.slice(1)) for (const kind of Object.values(x.gc ?? {})) ms += kind.ms;
    spanMs = Math.max(spanMs, samples[samples.length - 1].tMs - samples[0].tMs);
  }
  return seen && spanMs > 0 ? ms / (spanMs / 1000) : null;
}

/** A run's target is on this machine: a loopback URL, or a target loadlab started here. */
function onThisMachine(run: RunResult): boolean {
  const kind = run.targetInfo?.kind;
  if (kind !== undefined && kind !== "url" && kind !== "external") return true;
  const host = URL.canParse(run.url) ? new URL(run.url).hostname : "";
  return host === "localhost" || host === "[::1]" || host.startsWith("127.");
}

/** A run's telemetry and generator facts, one figure each (null where not sampled). */
export function digestRun(run: RunResult) {
  const telemetry = run.telemetry ?? [];
  const procs = telemetry.filter((t) => t.kind === "process");
  const runtimes = telemetry.filter((t) => t.kind === "runtime");
  const redis = telemetry.filter((t) => t.kind === "redis");
  const cpu = busiest(procs, "cpuPercent");
  const loop = busiest(runtimes, "loopP99Ms");
  const stats = run.targetStatsMeasured ?? run.targetStats ?? {};
  const worker = generatorSaturation(run.intervals);
  return {
    /** Mean CPU % (of one core) of the busiest target process, and its name. */
    cpuPct: cpu?.value ?? null,
    cpuProcess: cpu?.name ?? null,
    /** Mean % of the time that process's main thread waited for a core (a shared machine). */
    runQueueWaitPct: cpu ? seriesMean(procs.find((p) => p.name === cpu.name)!, "runQueueWaitPct") : null,
    /** Mean over ticks of the event-loop delay p99 (ms) of the most delayed sampled process. */
    loopP99Ms: loop?.value ?? null,
    /** GC pause time per second of wall time, all kinds, summed over sampled processes. */
    gcMsPerSec: gcMsPerSec(runtimes),
    redisCpuPct: redis.length ? seriesMean(redis[0], "cpuPercent") : null,
    redisOpsPerSec: redis.length ? seriesMean(redis[0], "opsPerSec") : null,
    /** Share of the CMS page's queries that waited for a pool slot, %. */
    poolQueuedPct: stats.cmsQueries ? ((stats.cmsQueued ?? 0) / stats.cmsQueries) * 100 : null,
    generatorBound: run.generatorBound,
    /** Open models: % of the sends let out late (the generator's event loop behind); null for closed ones. */
    lateSendsPct: run.targetRps !== null && sendsOf(run) > 0 ? (run.lateSends / sendsOf(run)) * 100 : null,
    /** Closed models: the busiest load worker's run-or-wait share and timer lag; null if unrecorded. */
    generatorDemandPct: worker ? worker.busyPct + worker.waitPct : null,
    generatorLoopLagMs: worker?.loopLagMs ?? null,
    /** The target ran on the generator's machine: the two shared its cores. */
    sameMachine: onThisMachine(run),
    /** The function with the most self time in the run's CPU profiles, as a % of its process's busy time. */
    profileTop: profileTop(run),
  };
}

/** The target's CPU µs per measured request: its processes' CPU after the warm-up; NaN when unsampled. */
export function targetCpuUsPerRequest(run: RunResult): number {
  const fromMs = run.warmupSec * 1000, toMs = fromMs + run.durationSec * 1000;
  let cpuUs = 0;
  for (const t of run.telemetry ?? []) {
    if (t.kind !== "process") continue;
    let prevMs = 0;
    for (const s of t.samples) {
      const spanMs = s.tMs - prevMs;
      prevMs = s.tMs;
      if (s.tMs > fromMs && s.tMs <= toMs + spanMs) cpuUs += (s.cpuPercent ?? 0) * 10 * spanMs;
    }
  }
  return cpuUs > 0 && run.requests > 0 ? cpuUs / run.requests : Number.NaN;
}

/** The mean digest of several runs (the repeats of one sweep point); null fields stay null. */
export function meanDigest(digests: TelemetryDigest[]): TelemetryDigest {
  const avg = (
    key: Exclude<keyof TelemetryDigest, "cpuProcess" | "generatorBound" | "sameMachine" | "profileTop">,
  ) => meanOf(digests.flatMap((d) => d[key] === null ? [] : [d[key] as number]));
  return {
    cpuPct: avg("cpuPct"),
    cpuProcess: digests.find((d) => d.cpuProcess)?.cpuProcess ?? null,
    runQueueWaitPct: avg("runQueueWaitPct"),
    loopP99Ms: avg("loopP99Ms"),
    gcMsPerSec: avg("gcMsPerSec"),
    redisCpuPct: avg("redisCpuPct"),
    redisOpsPerSec: avg("redisOpsPerSec"),
    poolQueuedPct: avg("poolQueuedPct"),
    generatorBound: digests.some((d) => d.generatorBound),
    lateSendsPct: avg("lateSendsPct"),
    generatorDemandPct: avg("generatorDemandPct"),
    generatorLoopLagMs: avg("generatorLoopLagMs"),
    sameMachine: digests.some((d) => d.sameMachine),
    profileTop: digests.map((d) => d.profileTop).filter((t) => t !== null)
      .sort((a, b) => b!.sharePct - a!.sharePct)[0] ?? null,
  };
}
