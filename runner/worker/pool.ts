/**
 * @module
 * Main-isolate side of the workers: N isolates prepare shares before t0 (warm-up, pre-connect), start at
 * one instant; a failing one stops the others (`LoadError`); memory is watched while a session script loads.
 */
import { basename } from "node:path";
import type { AttackConfig } from "../config.ts";
import { loadBoundMs } from "../load/models/mod.ts";
import type { SteerChange } from "../../results/schema/steering.ts";
import { HEARTBEAT_SLOTS, type MainToWorker, type WorkerToMain } from "./protocol.ts";
import { wsSinkFor } from "../load/warmup_sink.ts";
import type { PrepareSummary } from "../load/load_run_types.ts";
import type { RunResult } from "../../results/mod.ts";
import { LoadError, StoppedBeforeLoad, WorkerCollector, type WorkerSinks } from "./collect.ts";
import type { DoneSummary } from "./collect.ts";
import { ScriptSetupError } from "../script/host/hooks.ts";
import { DEFAULT_YOUNG_MB, LoadWorker } from "./load_worker.ts";
import { socketsOf } from "../socket_budget.ts";
import { newRunCounters } from "../script/run_state.ts";
import { cutPastMemoryLimit, memoryGivenBack, memoryLimitMbOf, memoryPassedText } from "./memory_limit.ts";
import { inputs } from "../script/isolate_inputs.ts";

const READY_TIMEOUT_MS = 30_000;
/** Bound on a worker loading its modules (a cold cache on busy cores took over 30 s): only a hang hits it. */
const START_TIMEOUT_MS = 120_000;
/** Lead time between "start" and the first send, so every worker has received it (a hop: under 1 ms idle). */
export const START_LEAD_MS = 10;

/** Semi-spaces of a script worker: 24 MB per 10,000 sessions, at most 48 MB (19,950 ran 0.77x at 48 MB). */
const SESSIONS_SEMI_MB_PER_10K = 24;
const SESSIONS_SEMI_MB_MAX = 48;

/** The young generation (three semi-spaces) a worker of `config`'s run gets: see the constants above. */
export function youngGenerationMbOf(config: AttackConfig): number {
  if (config.script === undefined) return DEFAULT_YOUNG_MB;
  const sessions = Math.ceil(socketsOf(config).sockets / config.workers);
  const semiMb = Math.ceil(SESSIONS_SEMI_MB_PER_10K * sessions / 10_000);
  return 3 * Math.min(SESSIONS_SEMI_MB_MAX, Math.max(SESSIONS_SEMI_MB_PER_10K, semiMb));
}

interface PoolOptions extends WorkerSinks {
  /** Told the common start instant (epoch ms) as the workers are, so callers can time the warm-up's end. */
  onStart?(startAtEpochMs: number): void;
  /** After the start, a way to send a steering change to every worker; null again when the load is over. */
  onSteerable?(send: ((change: SteerChange) => void) | null): void;
  signal?: AbortSignal;
  /** The counters every worker of the run shares (runner/script/run_state.ts); else the pool's own. */
  counters?: SharedArrayBuffer;
  /** Several loads' common start (epoch ms), told once every load's workers are prepared (runAttackParts). */
  startGate?(): Promise<number>;
}

export type WorkersSummary = ReturnType<typeof workersSummary>;

/** Runs the load in `config.workers` isolates. */
export async function runWorkers(config: AttackConfig, opts: PoolOptions): Promise<WorkersSummary> {
  const count = config.workers;
  // Chosen from what the machine has before the workers take their share.
  const memoryLimitMb = memoryLimitMbOf(config);
  const workers = Array.from(
    { length: count },
    () => new LoadWorker(youngGenerationMbOf(config), memoryLimitMb),
  );
  const send = (w: LoadWorker, msg: MainToWorker) => w.postMessage(msg);
  // Started here, not in each worker: a worker's own nested worker starts half a second later.
  const sink = wsSinkFor(config);
  // A stop before the load is not waited out (a script's slow import, a long pre-connect): no load is sent.
  const stop = stopBeforeLoad(opts.signal);
  const overMemory = memoryBeforeLoad(config, workers, memoryLimitMb);
  // A script's isolate holds its module's state: only a script-less run's isolates serve another run.
  let reusable = false;
  try {
    await Promise.race([allAnswered(workers, "ready", START_TIMEOUT_MS), stop.stopped, overMemory.cut]);
    const warmupSinkUrl = (await sink)?.url;
    const prepareMs = READY_TIMEOUT_MS + 2 * config.timeoutMs;
    const preparing = allAnswered(workers, "prepared", prepareMs, notPreparedText(prepareMs));
    const heartbeats = workers.map(() =>
      new SharedArrayBuffer(HEARTBEAT_SLOTS * Float64Array.BYTES_PER_ELEMENT)
    );
    const counters = opts.counters ?? newRunCounters();
    workers.forEach((w, workerIndex) =>
      send(w, {
        type: "prepare",
        load: { config, workerIndex, workerCount: count, warmupSinkUrl, heartbeat: heartbeats[workerIndex] },
        counters,
        inputs,
      })
    );
    const answers = await Promise.race([preparing, stop.stopped, overMemory.cut]);
    const gatedMs = await Promise.race([opts.startGate?.(), stop.stopped]);
    stop.dispose();
    overMemory.dispose();
    sink.then((s) => s?.close());
    // A shared start (segments on several machines) is kept even when it has passed: sends already
    // due go out late and are counted so, and the shard says how late it started.
    const nowEpochMs = performance.timeOrigin + performance.now();
    const startAtEpochMs = gatedMs ?? config.startAtEpochMs ??
      leadStartOf(config, nowEpochMs + START_LEAD_MS);
    const startLateMs = config.startAtEpochMs === undefined ? 0 : Math.max(0, nowEpochMs - startAtEpochMs);
    // The load's own end (a count's max duration), then a stop request's, if sooner.
    const originMs = startAtEpochMs - performance.timeOrigin + config.warmupMs;
    const endMs = originMs + loadBoundMs(config);
    const beats = heartbeats.map((buffer) => new Float64Array(buffer));
    const collecting = new WorkerCollector(workers, beats, opts, config, { originMs, endMs, memoryLimitMb });
    opts.onStart?.(startAtEpochMs);
    workers.forEach((w) => send(w, { type: "start", startAtEpochMs }));
    opts.onSteerable?.((change) => workers.forEach((w) => send(w, { type: "steer", change })));
    collecting.endBy(endMs + config.gracefulStopMs);
    const onAbort = () => {
      workers.forEach((w) => send(w, { type: "stop" }));
      collecting.endBy(performance.now() + config.gracefulStopMs);
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const done = await collecting.done;
      reusable = config.script === undefined && !done.part.memoryCut;
      if (done.part.memoryCut) await memoryGivenBack(memoryLimitMb);
      return workersSummary(config, answers.map((m) => m.summary), done, startAtEpochMs, startLateMs);
    } finally {
      opts.onSteerable?.(null);
      opts.signal?.removeEventListener("abort", onAbort);
    }
  } finally {
    stop.dispose();
    overMemory.dispose();
    workers.forEach((w) => w.release(reusable));
    sink.then((s) => s?.close()); // a failed prepare
  }
}

function stopBeforeLoad(signal: AbortSignal | undefined): { stopped: Promise<never>; dispose(): void } {
  let onAbort = () => {};
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(new StoppedBeforeLoad("stopped while the load workers prepared: no load was sent"));
  });
  // Handled by the race that awaits it; a stop after the load started is the pool's own.
  stopped.catch(() => {});
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  return { stopped, dispose: () => signal?.removeEventListener("abort", onAbort) };
}

/** Rejects once loadlab's memory passes `limitMb` before the load (a script's top level may grow GB/s). */
function memoryBeforeLoad(config: AttackConfig, workers: LoadWorker[], limitMb: number) {
  const watch = cutPastMemoryLimit(limitMb, () => {
    for (const w of workers) {
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
    }
  });
  // A worker whose module reached its heap's cap (the limit) ends itself, maybe before the RSS is read.
  for (const w of workers) w.onheapcap = () => watch.cut();
  const cut = watch.over.then((): never => {
    const passed = memoryPassedText(limitMb);
    if (config.script === undefined) throw new LoadError(`preparing the load ${passed}; no load was sent`);
    const top = `${basename(config.script.path)}: its top level ${passed}`;
    throw new ScriptSetupError(`${top} as the load workers imported it; no load was sent`);
  });
  cut.catch(() => {});
  const dispose = () => {
    watch.stop();
    for (const w of workers) w.onheapcap = null;
  };
  return { cut, dispose };
}

/** The start without a shared instant: at once; a segment's on the wall clock's interval grid. */
function leadStartOf(config: AttackConfig, earliestEpochMs: number): number {
  if (config.segment === undefined) return earliestEpochMs;
  return Math.ceil(earliestEpochMs / config.intervalMs) * config.intervalMs;
}

/** Each worker's `answer` (by worker index) once all came; a crash, failure, exit or `timeoutMs` rejects. */
function allAnswered<T extends "ready" | "prepared", M = Extract<WorkerToMain, { type: T }>>(
  workers: LoadWorker[],
  answer: T,
  timeoutMs: number,
  timeoutText = `load workers not started within ${timeoutMs} ms`,
): Promise<M[]> {
  return new Promise((resolve, reject) => {
    const answers: M[] = [];
    let remaining = workers.length;
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const timer = setTimeout(() => fail(new LoadError(timeoutText)), timeoutMs);
    // A bound, not work: it must not hold the process open after a stop before the load ended the workers.
    Deno.unrefTimer(timer);
    workers.forEach((w, k) => {
      w.onerror = (message) =>
        fail(new LoadError(`load worker ${answer === "ready" ? "failed to start" : "crashed"}: ${message}`));
      w.onmessage = (msg) => {
        if (msg.type === "failed") {
          fail(new LoadError(`load worker ${msg.workerIndex} failed: ${msg.message}`));
        }
        if (msg.type === "exited") fail(new ScriptSetupError(EXITED_BEFORE_LOAD));
        if (msg.type !== answer) return;
        answers[k] = msg as M;
        if (--remaining === 0) {
          clearTimeout(timer);
          resolve(answers);
        }
      };
    });
  });
}

/** Why the load did not start when the workers' prepare outlived its limit: what takes that long, the fix. */
function notPreparedText(timeoutMs: number): string {
  return `load workers not prepared within ${timeoutMs / 1000} s (30 s and twice the request timeout): a ` +
    "session script's import (a top-level await), the generator warm-up or the pre-connect took longer; " +
    "make the script's top-level code end sooner, or check that the target accepts connections quickly; " +
    "no load was sent";
}

/** Why the load did not start when a worker's isolate exited on its own (a script's `Deno.exit`): exit 2. */
const EXITED_BEFORE_LOAD = "a load worker's isolate exited before the load (Deno.exit or process.exit in " +
  "the session script's module?)";

/**
 * The workers' summaries with `part` in results' shape: pools add up, the warm-up is the slowest worker's,
 * the estimate the first's; a shard's segment says when its schedule started and how late its workers were.
 */
export function workersSummary(
  config: AttackConfig,
  prepared: PrepareSummary[],
  { maxStreamsPerConnection, part, ...done }: DoneSummary,
  startAtEpochMs: number,
  startLateMs: number,
) {
  // Every worker chose from the same config and URL, so they agree.
  const first = prepared[0];
  const protocol = first?.protocol ?? "http1";
  const startAt = new Date(startAtEpochMs).toISOString();
  return {
    ...done,
    part: {
      preConnected: prepared.reduce((sum, s) => sum + s.preConnected, 0),
      preConnectEstimateMs: prepared.find((s) => s.preConnectEstimateMs !== null)?.preConnectEstimateMs ??
        null,
      generatorWarmupMs: Math.round(Math.max(0, ...prepared.map((s) => s.generatorWarmupMs))),
      transport: first?.transport ?? "deno",
      ...(first?.transportFallback ? { transportFallback: first.transportFallback } : {}),
      protocol,
      ...(protocol !== "http1" ? { streams: config.streams, maxStreamsPerConnection } : {}),
      ...part,
      ...(config.segment ? { segment: { ...config.segment, startAt, lateMs: Math.round(startLateMs) } } : {}),
    } satisfies Partial<RunResult>,
  };
}
