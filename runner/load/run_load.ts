/**
 * @module
 * The worker-side runtime around an executor: builds the shared connection state and the recorder,
 * runs one timer that both enforces per-request timeouts (the watchdog scans deadlines, so no timer
 * per request) and drains finished intervals to the caller, and ends the run gracefully: after the
 * last start, in-flight requests get `gracefulStopMs` before their sockets are closed (those are not
 * counted). Used inside worker isolates and, unchanged, in-process by the conformance tests.
 */
import { type AttackConfig, measuredDurationMs } from "../config.ts";
import type { LoadModel } from "../../results/mod.ts";
import { Connection, type ConnectionShared, dialTarget, transportFor } from "../http/connection.ts";
import { RequestMix } from "../http/request.ts";
import { IntervalRecorder, type IntervalSample } from "../stats/recorder.ts";
import type { Executor, LoadContext } from "./executor.ts";
import { connectionsExecutor } from "./connections.ts";
import { countExecutor } from "./count.ts";
import { rateExecutor } from "./rate.ts";
import { throughputExecutor } from "./throughput.ts";
import { RequestLog } from "./request_log.ts";
import { waitUntil } from "./clock.ts";
import { encodeFlows } from "./flow_plan.ts";
import { arrivalFor, FlowSessions, type SessionRun } from "./flow_session.ts";
import type { FlowSample } from "../stats/flow_recorder.ts";

const executors: Record<LoadModel, Executor> = {
  connections: connectionsExecutor,
  rate: rateExecutor,
  throughput: throughputExecutor,
  count: countExecutor,
};

/** The executor of a load model. */
export function executorFor(model: LoadModel): Executor {
  return executors[model];
}

export interface LoadRunOptions {
  config: AttackConfig;
  workerIndex: number;
  workerCount: number;
  /** `performance.now()` of this isolate at which the load starts. */
  startMs: number;
  onSamples(samples: IntervalSample[]): void;
  /** Called once at the end with this worker's flow totals, when the load has flows. */
  onFlows?(flows: FlowSample[]): void;
}

/** What a worker reports when its share is done. */
export interface LoadRunSummary {
  /** Time from the start of the measured run to the end of this worker's load. */
  activeMs: number;
}

/** A running load; `stop()` asks it to start nothing new and end gracefully. */
export interface LoadRun {
  done: Promise<LoadRunSummary>;
  stop(): void;
}

/** Starts this worker's share of the load. */
export function startLoad(opts: LoadRunOptions): LoadRun {
  const { config } = opts;
  const url = new URL(config.url);
  const { hostname, port } = dialTarget(url);
  const originMs = opts.startMs + config.warmupMs;
  const recorder = new IntervalRecorder({
    intervalMs: config.intervalMs,
    originMs,
    uncorrected: config.model === "throughput",
  });
  const shared: ConnectionShared = {
    hostname,
    port,
    transport: transportFor(url),
    recorder,
    mix: new RequestMix(url, config.requestMix, opts.workerIndex * 7919),
    timeoutMs: config.timeoutMs,
    maxHeaderBytes: config.maxHeaderBytes,
    log: null,
    stopping: false,
  };
  const connections: Connection[] = [];
  const spanMs = config.warmupMs + measuredDurationMs(config);
  const sessions = config.flows === undefined ? null : new FlowSessions(
    encodeFlows(url, config.flows),
    config.flows.map((f) => f.weight),
    originMs,
    opts.workerIndex * 7919,
  );
  // Ends sessions (their next step, their think time) on a stop request or past the graceful stop.
  const ended = new AbortController();
  const sessionRun: SessionRun = { shared, ended: ended.signal };
  const ctx: LoadContext = {
    config,
    shared,
    workerIndex: opts.workerIndex,
    workerCount: opts.workerCount,
    startMs: opts.startMs,
    endMs: opts.startMs + spanMs,
    stopRequested: false,
    newConnection() {
      const conn = new Connection(
        opts.workerIndex * 1_000_000 + connections.length,
        shared,
        config.pipelining,
      );
      connections.push(conn);
      return conn;
    },
    arrival: arrivalFor(sessionRun, sessions, config.connection === "per-arrival"),
  };
  let stopAtMs = Infinity;
  const done = (async () => {
    if (config.logFile) shared.log = await RequestLog.open(config.logFile, originMs, 0);
    await waitUntil(opts.startMs);
    const timer = setInterval(() => {
      const nowMs = performance.now();
      watchdog(connections, nowMs);
      if (nowMs > Math.min(ctx.endMs, stopAtMs) + config.gracefulStopMs) {
        shared.stopping = true;
        ended.abort();
        for (const c of connections) c.abort();
      }
      const samples = recorder.drain(nowMs, false);
      if (samples.length) opts.onSamples(samples);
    }, Math.min(config.intervalMs, 50));
    try {
      await executorFor(config.model).run(ctx);
    } finally {
      clearInterval(timer);
      shared.stopping = true;
      for (const c of connections) c.abort();
    }
    const endMs = performance.now();
    opts.onSamples(recorder.drain(endMs, true));
    if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
    await (shared.log as RequestLog | null)?.close();
    return { activeMs: Math.max(0, Math.min(endMs, ctx.endMs, stopAtMs) - originMs) };
  })();
  return {
    done,
    stop() {
      if (ctx.stopRequested) return;
      ctx.stopRequested = true;
      ended.abort();
      stopAtMs = performance.now();
    },
  };
}

/** Aborts exchanges past their deadline; the failed read is then counted as a timeout. */
function watchdog(connections: Connection[], nowMs: number): void {
  for (const conn of connections) {
    if (conn.deadlineMs < nowMs) {
      conn.timedOut = true;
      conn.abort();
    }
  }
}
