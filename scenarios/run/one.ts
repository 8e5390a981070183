/**
 * @module
 * One planned run, from its cooldown to its result, with the target's counters over it.
 */
import { cutWarmup, phaseStats } from "../../results/interval_stats.ts";
import type { Plan, PlannedRun } from "../plan/types.ts";
import type { RunTarget, TargetPool } from "./targets.ts";
import type { AttackProgress, RunResult } from "../../results/mod.ts";
import { type AttackHooks, type AttackPart, runAttack, runAttackParts } from "../../runner/attack.ts";
import type { RunSteering } from "../../runner/steering.ts";
import { requestLogError, requestLogPath } from "../../runner/load/request_log.ts";
import {
  type AttackConfig,
  type AttackConfigInput,
  parseAttackConfig,
  type RelativeAttackInput,
} from "../../runner/config.ts";
import type { Threshold } from "../../results/thresholds/threshold.ts";
import { checkSelectors } from "../../results/thresholds/selector.ts";
import { endpointTable } from "../../runner/endpoint_table.ts";
import { abortRules } from "./thresholds.ts";
import { type CpuProfiling, startCpuProfiles, type TakenProfile } from "../../targets/inspector.ts";
import { loopbackListener, startTelemetry } from "../../targets/telemetry.ts";
import type { RunningTarget } from "../../targets/spec.ts";
import { sleepUnlessAborted } from "../../system/sleep.ts";
import type { IntervalDelta } from "../../results/export/interval_delta.ts";
import { withPaths } from "../plan/attack.ts";
import { idleWarning, isCpuProfile, summarizeProfile } from "../../results/cpu_profile.ts";
import type { RunProfile } from "../../results/schema/profile.ts";
import { writeTextAtomic } from "../../system/output_file.ts";
import { fileStem } from "../../validation/shown_name.ts";
import { defined } from "../../validation/defined.ts";

/** What a run under way reports (the plan's own before/after hooks are in scenarios/run/run_plan.ts). */
export interface RunHooks {
  onProgress?(p: AttackProgress): void;
  /** The run's target telemetry so far, readable while it runs (the live dashboard samples it). */
  onTelemetry?(peek: () => NonNullable<RunResult["telemetry"]>): void;
  /** Each interval as the engine finishes it, with the target telemetry so far: for metrics outputs. */
  onInterval?(
    delta: IntervalDelta,
    run: PlannedRun,
    telemetry: (() => NonNullable<RunResult["telemetry"]>) | null,
  ): void;
}

/** What one run takes of the plan's options. */
export interface RunOptions {
  outDir: string;
  /** Ctrl-C: the run under way stops gracefully and is kept as incomplete. */
  signal?: AbortSignal;
  hooks?: RunHooks;
  /** Live steering of each run under way (the dashboard's controls, `loadlab steer`). */
  steering?: RunSteering;
}

/** A run a stop (Ctrl-C, SIGTERM) cut before its load: `stoppedIn` names the phase. */
export class StoppedRun {
  constructor(readonly stoppedIn: string) {}
}

/** Runs one planned run; a `StoppedRun` when Ctrl-C came before its load started. */
export async function executeRun(
  run: PlannedRun,
  pool: TargetPool,
  opts: RunOptions,
  exp: Plan["experiment"],
  thresholds: Map<string, Threshold>,
): Promise<RunResult | StoppedRun> {
  const prepared = await prepareRun(run, pool, opts, Boolean(exp.log), thresholds);
  if (prepared instanceof StoppedRun) return prepared;
  const { target, config } = prepared;
  const coldStart = target.startedNow && target.running
    ? await measureColdStart(target.running, target.startedNow, config, coldStartRequests(exp), opts.signal)
    : null;
  const watched = await attackWatched(run, prepared, opts, thresholds).catch((err) => {
    // Ctrl-C or SIGTERM while setup() ran or the workers prepared: no load was sent.
    if (err?.name === "ScriptStopped") return new StoppedRun((err as Error & { phase: string }).phase);
    if (err?.name === "StoppedBeforeLoad") return new StoppedRun("the load workers' start");
    throw err;
  });
  if (watched instanceof StoppedRun) return watched;
  const profiles = watched.taken.length
    ? await saveRunProfiles(watched.taken, opts.outDir, run.name, watched.loadStartUs)
    : [];
  const result = {
    ...completeRunResult(watched.attack, run, config, target, watched.series, watched.counters),
    ...(coldStart ? { coldStart } : {}),
    ...(profiles.length ? { profiles } : {}),
  };
  return opts.signal?.aborted ? { ...result, incomplete: true } : result;
}

/** A run's target, its config against it (the first load's, with `parts` the loads run together), its log. */
type PreparedRun = { target: RunTarget; config: AttackConfig; parts?: AttackPart[]; logFile?: string };

/** The run's cooldown, its target and its config against it; a `StoppedRun` when Ctrl-C came first. */
async function prepareRun(
  run: PlannedRun,
  pool: TargetPool,
  opts: RunOptions,
  log: boolean,
  thresholds: Map<string, Threshold>,
): Promise<PreparedRun | StoppedRun> {
  if (run.cooldownMs > 0) await sleepUnlessAborted(run.cooldownMs, opts.signal);
  if (opts.signal?.aborted) return new StoppedRun("the cooldown");
  const target = await pool.acquire(run);
  if (!target || opts.signal?.aborted) return new StoppedRun("the target's start");
  const logFile = log ? requestLogPath(opts.outDir, run.name) : undefined;
  if (logFile) await Deno.mkdir(`${opts.outDir}/requests`, { recursive: true });
  const against = (attack: RelativeAttackInput) =>
    rebase(trustTargetCa(attack, target.running?.caFile), baseUrlOf(run, target));
  const config = parseAttackConfig({ ...against(run.attack), ...(logFile ? { logFile } : {}) });
  if (!config.script && !run.parts) {
    checkSelectors(run.thresholds.map((expr) => thresholds.get(expr)!), endpointTable(config).endpoints);
  }
  // Loads run together (`together:`): each against the same target; `config` is the first's.
  const parts = run.parts?.map(({ attack, ...p }) => ({ ...p, config: parseAttackConfig(against(attack)) }));
  return { target, config, parts, logFile };
}

/** Where `run` is sent: gRPC goes to a built-in target's gRPC listener when it serves one. */
function baseUrlOf(run: PlannedRun, target: RunTarget): string {
  const grpcUrl = target.running?.grpcUrl;
  const grpc = run.attack.grpc !== undefined || run.listener === "grpc";
  return grpc && grpcUrl !== undefined ? grpcUrl : target.url;
}

/** The attack, with the target's telemetry, counters (whole and past the warm-up) and CPU profiles. */
async function attackWatched(
  run: PlannedRun,
  { target, config, parts, logFile }: PreparedRun,
  opts: RunOptions,
  thresholds: Map<string, Threshold>,
) {
  const statsBefore = await target.stats();
  // A started target is watched from before the load (its Redis counters need a baseline read).
  const startMs = performance.now();
  let ended = false;
  let telemetry = null as ReturnType<typeof startTelemetry> | null;
  const watch = (watched: Parameters<typeof startTelemetry>[0] | undefined) => {
    if (!watched || ended) return;
    telemetry = startTelemetry(watched, { intervalMs: config.intervalMs, startMs });
    opts.hooks?.onTelemetry?.(telemetry.peek);
    return telemetry.ready;
  };
  if (target.running) await watch(target.running);
  else void loopbackListener(target.url).then(watch);
  const warmupEnd = warmupSnapshot(target, config.warmupMs);
  const onInterval = opts.hooks?.onInterval;
  const profiling = await startRunProfiles(target);
  let loadStartEpochMs = profiling?.startedAtEpochMs ?? 0;
  let attack: RunResult;
  let series: RunResult["telemetry"];
  let taken: TakenProfile[] = [];
  try {
    const hooks: AttackHooks = {
      name: run.name,
      onProgress: opts.hooks?.onProgress,
      onStart: (at) => {
        loadStartEpochMs = at;
        warmupEnd.onStart?.(at);
      },
      signal: opts.signal,
      abortOn: abortRules(run, thresholds, config.segment !== undefined),
      steering: opts.steering,
      onInterval: onInterval && ((delta) => onInterval(delta, run, telemetry ? telemetry.peek : null)),
    };
    attack = parts ? await runAttackParts(parts, hooks) : await runAttack(config, hooks);
  } catch (err) {
    throw (logFile && requestLogError(err, logFile)) || err;
  } finally {
    ended = true;
    series = telemetry?.stop();
    warmupEnd.cancel();
    taken = await profiling?.stop() ?? [];
  }
  const counters = await counterDeltas(statsBefore, target, await warmupEnd.stats());
  // When the load started, in µs after the CPU profiles did.
  const loadStartUs = Math.max(0, loadStartEpochMs - (profiling?.startedAtEpochMs ?? 0)) * 1000;
  return { attack, series, taken, counters, loadStartUs };
}

/** The target's counters over the run and from the warm-up's end (null without one); latency excludes it. */
async function counterDeltas(
  before: Record<string, number>,
  target: RunTarget,
  atWarmupEnd: Record<string, number> | null,
) {
  const after = await target.stats();
  const delta = (from: Record<string, number>) =>
    Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (from[k] ?? 0)]));
  return { whole: delta(before), measured: atWarmupEnd ? delta(atWarmupEnd) : null };
}

/** Reads the target's counters `warmupMs` after the attack's start, as the warm-up ends. */
function warmupSnapshot(target: RunTarget, warmupMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let taken: Promise<Record<string, number> | null> = Promise.resolve(null);
  return {
    onStart: warmupMs > 0
      ? (startAtEpochMs: number) => {
        taken = new Promise((resolve) => {
          timer = setTimeout(
            () => target.stats().then(resolve, () => resolve(null)),
            Math.max(0, startAtEpochMs + warmupMs - Date.now()),
          );
        });
      }
      : undefined,
    cancel: () => clearTimeout(timer),
    stats: () => taken,
  };
}

/** Adds the experiment's coordinates, telemetry, counters, the auto warm-up cut and phases to a run. */
function completeRunResult(
  attack: RunResult,
  run: PlannedRun,
  config: AttackConfig,
  target: RunTarget,
  telemetry: RunResult["telemetry"],
  counters: Awaited<ReturnType<typeof counterDeltas>>,
): RunResult {
  const targetStats = counters.whole;
  let result: RunResult = {
    ...attack,
    variant: run.variant,
    load: run.load,
    ...defined({ sweep: run.sweep && { ...run.sweep }, sweep2: run.sweep2 && { ...run.sweep2 } }),
    repeat: run.repeat,
    ...(telemetry?.length ? { telemetry } : {}),
    targetInfo: target.info,
    ...(Object.keys(targetStats).length ? { targetStats } : {}),
    ...(counters.measured && Object.keys(counters.measured).length
      ? { targetStatsMeasured: counters.measured }
      : {}),
  };
  // warmup: auto cuts at the stabilization time; never stable: no cut (`warmupNotReached`).
  const stableAtMs = result.stabilizedAtMs;
  if (run.warmupAuto && stableAtMs !== null) {
    result = { ...(stableAtMs > 0 ? cutWarmup(result, stableAtMs) : result), warmupAuto: true };
  } else if (run.warmupAuto) {
    result = { ...result, warmupNotReached: true };
  }
  if ("phases" in config) result = { ...result, phases: phaseStats(result, config.phases) };
  return result;
}

/** Trusts a self-signed target's CA unless the load names its own or skips verification. */
function trustTargetCa(attack: RelativeAttackInput, caFile: string | undefined): RelativeAttackInput {
  const tls = attack.tls;
  if (caFile === undefined || tls?.caFile !== undefined || tls?.insecure) return attack;
  return { ...attack, tls: { ...tls, caFile } } as RelativeAttackInput;
}

/** Attack config against `baseUrl`: the engine joins paths to the origin, so a base path prefixes them. */
export function rebase(attack: RelativeAttackInput, baseUrl: string): AttackConfigInput {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  if (attack.ws !== undefined) {
    const scheme = base.protocol === "https:" || base.protocol === "wss:" ? "wss:" : "ws:";
    return { ...attack, url: `${scheme}//${base.host}${prefix}${attack.ws.path ?? "/"}` };
  }
  const url = `${base.origin}/`;
  return prefix ? { ...withPaths(attack, (path) => prefix + path), url } : { ...attack, url };
}

/** Probe requests after a start when the experiment restarts its targets and does not say how many. */
const COLD_START_REQUESTS = 10;

/** How many probe requests follow each start: the experiment's `coldStartRequests`, else the default. */
export function coldStartRequests(exp: { restart: string; coldStartRequests?: number }): number {
  return exp.coldStartRequests ?? (exp.restart === "never" ? 0 : COLD_START_REQUESTS);
}
const PROBE_TIMEOUT_MS = 10_000;
/** All probes of one start together stop after this long: a target that hangs must not hold up the run. */
const PROBES_BUDGET_MS = 15_000;

/** The path the probe asks for: the run's first GET request (of its mix or flows), else `/`. */
function probePath(config: AttackConfig): string {
  const steps = config.flows?.flatMap((f) => f.steps.flatMap((s) => "request" in s ? [s.request] : [])) ?? [];
  const first = [...steps, ...config.requestMix].find((r) => r.method === "GET");
  return first?.path ?? "/";
}

/** Sends the probe requests to a target just started, fewer when Ctrl-C comes or they take over 15 s. */
async function measureColdStart(
  target: RunningTarget,
  start: number,
  config: AttackConfig,
  requests: number,
  signal?: AbortSignal,
): Promise<RunResult["coldStart"] | null> {
  if (!target.coldStart) return null;
  const { spawnAtMs, ...marks } = target.coldStart;
  const path = probePath(config);
  const client = clientFor(target, config);
  const firstRequestsMs: Array<number | null> = [];
  let first2xxMs: number | null = null;
  const deadline = performance.now() + PROBES_BUDGET_MS;
  try {
    for (let i = 0; i < requests && performance.now() < deadline && !signal?.aborted; i++) {
      const sentAt = performance.now();
      const timeout = AbortSignal.timeout(PROBE_TIMEOUT_MS);
      try {
        const res = await fetch(target.url + path, {
          client,
          signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
        });
        await res.arrayBuffer();
        const doneAt = performance.now();
        firstRequestsMs.push(round(doneAt - sentAt));
        if (res.ok && first2xxMs === null) first2xxMs = round(doneAt - spawnAtMs);
      } catch {
        firstRequestsMs.push(null); // failed or timed out: a gap in the curve, not a fast point
      }
    }
  } finally {
    client?.close();
  }
  return {
    start,
    path,
    ...marks,
    first2xxMs,
    firstRequestsMs,
    runStartMs: round(performance.now() - spawnAtMs),
  };
}

/** An HTTP client trusting the target's CA (self-signed HTTPS), or skipping verification as the load does. */
function clientFor(target: RunningTarget, config: AttackConfig): Deno.HttpClient | undefined {
  const caFile = config.tls?.caFile ?? target.caFile;
  if (!target.url.startsWith("https:") || !caFile) return undefined;
  return Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(caFile)] });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** Starts profiling the target's inspected processes; null when the target is not profiled. */
async function startRunProfiles(target: RunTarget): Promise<CpuProfiling | null> {
  const inspected = target.running?.inspected;
  if (!inspected?.length) return null;
  try {
    return await startCpuProfiles(inspected);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    const taken = inspected.map((p) => ({ name: p.name, error }));
    return { startedAtEpochMs: Date.now(), stop: () => Promise.resolve(taken) };
  }
}

/** The folder (under the output directory) and file name of one process's profile of one run. */
export function profilePath(runName: string, process: string): string {
  const safe = (s: string) => fileStem(s, /^[A-Za-z0-9.=-]*$/.test(s));
  return `profiles/${safe(runName)}.${safe(process)}.cpuprofile`;
}

/** Writes each taken profile beside results.json; `loadStartUs` is where the summary's windows begin. */
async function saveRunProfiles(taken: TakenProfile[], outDir: string, runName: string, loadStartUs: number) {
  await Deno.mkdir(`${outDir}/profiles`, { recursive: true });
  return await Promise.all(taken.map(async (t): Promise<RunProfile> => {
    if ("error" in t) return { process: t.name, error: t.error };
    if (!isCpuProfile(t.profile)) return { process: t.name, error: "the inspector answered no CPU profile" };
    const file = profilePath(runName, t.name);
    try {
      await writeTextAtomic(`${outDir}/${file}`, JSON.stringify(t.profile));
    } catch (err) {
      return { process: t.name, error: `cannot write ${file}: ${(err as Error).message}` };
    }
    const summary = summarizeProfile(t.profile, undefined, loadStartUs);
    const warning = idleWarning(summary, t.runtime, t.children);
    return { process: t.name, file, summary, ...(warning === null ? {} : { warning }) };
  }));
}
