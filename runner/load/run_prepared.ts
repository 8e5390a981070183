/**
 * @module
 * A prepared load's run from t0: sessions or script arrivals, the model's context, one timer for timeouts
 * and intervals, and a graceful end: in-flight requests get `gracefulStopMs`, then count as `unfinished`.
 */
import type { WsRun } from "../http/ws/run.ts";
import type { WsStats } from "../http/ws/stats.ts";
import type { AttackConfig } from "../config.ts";
import type { ConnectionShared, LoadConnection } from "../http/load_connection.ts";
import type { ConnectionFactory } from "../http/protocols.ts";
import type { ChosenTransport } from "../http/transport/choice.ts";
import type { AnyModelDef } from "./models/mod.ts";
import { type Arrival, closeAll, exchangeArrival, type LoadContext } from "./executor.ts";
import { RequestLog } from "./request_log.ts";
import { waitUntil } from "./clock.ts";
import { loadContextOf } from "./generator_warmup.ts";
import type { GrpcStepMaker } from "./flow_plan.ts";
import type { FlowSessions, flowSessionsOf, SessionRun } from "./flow_session.ts";
import type { Feeder } from "./feeder.ts";
import { connectionsShareOf, WorkerSteering } from "./steer.ts";
import type { SteerChange } from "../../results/schema/steering.ts";
import type { LoadedScript } from "../script/load.ts";
import type { IntervalSample } from "../stats/sample.ts";
import type { LoadRun, LoadRunOptions, LoadRunSummary } from "./load_run_types.ts";
import { loadBoundMs, measuredDurationMs, pacingOf } from "./models/mod.ts";
import { pacedMs } from "./models/count.ts";
import { GeneratorMeter } from "../stats/generator_meter.ts";

interface Prepared {
  model: AnyModelDef;
  shared: ConnectionShared;
  connections: LoadConnection[];
  newConnection(): LoadConnection;
  pool: LoadConnection[];
  transport: ChosenTransport;
  feeder: Feeder | null;
  factory: ConnectionFactory;
  wsRun: WsRun | null;
  script: LoadedScript | null;
  grpcSteps: GrpcStepMaker | null;
  /** A load with flows: its sessions' maker, imported with their code by prepare. */
  flowSessionsOf: typeof flowSessionsOf | null;
}

interface RunState {
  ctx: LoadContext<AttackConfig>;
  /** When a stop request or the end of the data rows stopped new arrivals; Infinity until then. */
  stopAtMs: number;
  /** Ends sessions (their next step, their think time) on a stop request or past the graceful stop. */
  ended: AbortController;
  /** Aborted as the load's span ends or on a stop request (script sessions' `s.stopping`). */
  stopping: AbortController;
  originMs: number;
  sessions: FlowSessions | null;
  scripted: ReturnType<LoadedScript["arrival"]> | null;
  wsStats: WsStats | null;
  /** Closed models: the worker's thread, measured per interval (an open model's late sends say it). */
  meter: GeneratorMeter | null;
  /** Why a count ended short of its count (its max duration, its idle sessions), once known. */
  countEnd: CountEnd;
  /** Script sessions' connections beside the load's (flow_session.ts `SessionRun.sides`). */
  sides: Set<LoadConnection>;
}

export function runPrepared(opts: LoadRunOptions, prepared: Prepared, startMs: number): LoadRun {
  const { config } = opts;
  const recorder = prepared.shared.recorder;
  const originMs = startMs + config.warmupMs;
  recorder.setOrigin(originMs);
  const sessions = prepared.flowSessionsOf?.(config, originMs, {
    workerIndex: opts.workerIndex,
    feeder: prepared.feeder,
    h2Steps: prepared.factory.h2Steps,
    grpcSteps: prepared.grpcSteps,
    wsLoad: prepared.wsRun !== null,
  }) ?? null;
  // Whole-run ws loads count their connections' messages, flows their sessions', scripts their own sockets'.
  const wsStats = prepared.wsRun?.stats ?? sessions?.options.ws?.stats ?? prepared.script?.wsStats() ?? null;
  if (wsStats !== null) {
    wsStats.originMs = originMs;
    recorder.countWs(wsStats);
  }
  const ended = new AbortController(), stopping = new AbortController();
  const sides = new Set<LoadConnection>();
  const sessionRun: SessionRun = {
    shared: prepared.shared,
    ended: ended.signal,
    stopping: stopping.signal,
    sides,
  };
  const scripted = prepared.script?.arrival(sessionRun, { ...opts, originMs, feeder: prepared.feeder }) ??
    null;
  const perArrival = config.connection === "per-arrival";
  const arrival = scripted?.arrival ?? sessions?.arrival(sessionRun, perArrival) ??
    exchangeArrival(perArrival);
  const ctx = contextOf(opts, prepared, startMs, arrival);
  const meter = pacingOf(config) === "closed"
    ? new GeneratorMeter(originMs, config.intervalMs, tickMsOf(config), {
      readyWait: prepared.transport.takeReadyWait,
    })
    : null;
  const run: RunState = {
    ctx,
    stopAtMs: Infinity,
    ended,
    stopping,
    originMs,
    sessions,
    scripted,
    wsStats,
    meter,
    countEnd: new CountEnd(config, scripted?.sessions ?? null),
    sides,
  };
  const steer = (change: SteerChange) =>
    ctx.steer.add(
      change,
      (total) => connectionsShareOf(total, opts.workerIndex, opts.workerCount, ctx.streamsPerConnection),
    );
  // A replayed schedule: every change known from the start, each taking effect at its instant.
  for (const change of config.steering ?? []) steer(change);
  // Responses after the load's end are the drain: counted apart from the rate served over the window.
  recorder.setLoadEnd(ctx.endMs);
  // Out of rows: start no new arrival; those in progress finish (their graceful stop from now).
  if (prepared.feeder !== null) prepared.feeder.onExhausted = () => stopArrivals(run, prepared.shared);
  const done = runToEnd(opts, prepared, run).finally(() => prepared.transport.close());
  return {
    done,
    steer,
    stop() {
      if (ctx.stopRequested) return;
      stopArrivals(run, prepared.shared);
      stopping.abort();
      ended.abort();
    },
    inProgress: () => scripted?.sessions.inProgress() ?? 0,
    flush() {
      opts.onSamples(recorder.drain(performance.now(), true));
      if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
      if (scripted !== null) opts.onFlows?.(scripted.sessions.recorder.take());
    },
  };
}

/** The model's context; a steering change that ends the load early moves its end (and the drain's). */
function contextOf(
  opts: LoadRunOptions,
  prepared: Prepared,
  startMs: number,
  arrival: Arrival | null,
): LoadContext<AttackConfig> {
  const { config } = opts;
  const spanMs = config.warmupMs + measuredDurationMs(config);
  // The worker's place and config from `opts`, its shared state, connections and pool from `prepared`.
  const ctx = loadContextOf({
    ...opts,
    ...prepared,
    startMs,
    // A count without a duration stops at its max duration (the steering still sees it unbounded).
    endMs: startMs + config.warmupMs + loadBoundMs(config),
    streamsPerConnection: prepared.factory.perConnection,
    concurrency: config.concurrency,
    arrival,
    steer: new WorkerSteering(config, startMs, spanMs, (endMs) => {
      ctx.endMs = Math.min(ctx.endMs, Math.max(endMs, performance.now()));
      prepared.shared.recorder.setLoadEnd(ctx.endMs);
    }),
  });
  return ctx;
}

/**
 * An open schedule is measured over its whole span (else its rate is over the time to its last answer);
 * a stop or the data rows running out end it at once; a closed count ends at its last answer.
 */
async function outlastSchedule(ctx: LoadContext, config: AttackConfig): Promise<void> {
  // A count's duration only bounds it: its span is its schedule's, when it has one.
  const spanMs = config.model === "count" ? pacedMs(config) || Infinity : measuredDurationMs(config);
  if (!Number.isFinite(spanMs)) return;
  const endMs = Math.min(ctx.endMs, ctx.startMs + config.warmupMs + spanMs);
  while (!ctx.stopRequested && performance.now() < endMs) await ctx.steer.waitChange(endMs);
}

/** No new arrival from now (a stop request, or the data rows ran out); those in progress finish. */
function stopArrivals(run: RunState, shared: ConnectionShared): void {
  run.ctx.stopRequested = true;
  run.ctx.steer.interrupt();
  run.stopAtMs = Math.min(run.stopAtMs, performance.now());
  shared.recorder.setLoadEnd(run.stopAtMs);
}

/** Waits for t0, runs the model under the timer, then drains the last samples and sums the worker up. */
async function runToEnd(opts: LoadRunOptions, prepared: Prepared, run: RunState): Promise<LoadRunSummary> {
  const { config } = opts;
  const { shared } = prepared;
  if (config.logFile) {
    shared.log = await RequestLog.open(config.logFile, run.originMs, config.keepSentLatency);
  }
  await waitUntil(run.ctx.startMs);
  const timer = setInterval(() => tick(opts, prepared, run), tickMsOf(config));
  // The graceful stop's end on time, not at the next tick: calls in flight then are cut there.
  const cut = setTimeout(
    () => tick(opts, prepared, run),
    Math.max(0, run.ctx.endMs + config.gracefulStopMs - performance.now()) + 1,
  );
  try {
    await prepared.model.run(run.ctx);
    await outlastSchedule(run.ctx, config);
  } finally {
    clearInterval(timer);
    clearTimeout(cut);
    // The intervals ended by now are sampled before the connections close: their gauge is the load's.
    opts.onSamples(metered(run, prepared.shared.recorder.drain(performance.now(), false)));
    endConnections(prepared, performance.now(), undefined, run.sides);
    prepared.transport.close();
  }
  run.countEnd.ended(performance.now(), run.ctx.endMs, run.stopAtMs);
  const { scripted, sessions, wsStats } = run;
  // A script's promises rejected in its last turns are reported by the runtime on the next one.
  if (scripted !== null) await scripted.settled();
  scripted?.guard();
  const endMs = performance.now();
  run.meter?.tick(endMs);
  opts.onSamples(metered(run, shared.recorder.drain(endMs, true)));
  if (sessions !== null) opts.onFlows?.(sessions.recorder.take());
  if (scripted !== null) opts.onFlows?.(scripted.sessions.recorder.take());
  scripted?.dispose();
  // A failed log costs the log, not the measurements: reported beside them instead of thrown.
  const logError = await (shared.log as RequestLog | null)?.close().then(
    () => undefined,
    (err) => (err as Error).message,
  );
  return {
    activeMs: Math.max(0, Math.min(endMs, run.ctx.endMs, run.stopAtMs) - run.originMs),
    maxConnectsInFlight: shared.connectGate.maxInFlight,
    tlsSession: prepared.factory.tlsInfo?.() ?? prepared.transport.tlsInfo(),
    maxStreamsPerConnection: prepared.factory.maxOpenStreams(),
    ...(wsStats !== null ? { ws: wsStats.take() } : {}),
    ...(logError ? { logError } : {}),
    ...(prepared.feeder !== null && prepared.feeder.exhausted > 0 ? { dataRanOut: true } : {}),
    ...(run.countEnd.endedBy ? { endedBy: run.countEnd.endedBy } : {}),
  };
}

/** The run's timer: timeouts, the cut past the graceful stop, and the finished intervals to the caller. */
function tick(opts: LoadRunOptions, prepared: Prepared, run: RunState): void {
  run.scripted?.guard();
  const nowMs = performance.now();
  watchdog(prepared.connections, nowMs);
  if (run.sides.size > 0) watchdog(run.sides, nowMs);
  run.meter?.tick(nowMs);
  const stopMs = Math.min(run.ctx.endMs, run.stopAtMs);
  if (nowMs >= stopMs && !run.stopping.signal.aborted) run.stopping.abort();
  if (nowMs > stopMs + opts.config.gracefulStopMs) {
    endConnections(prepared, nowMs, run.ended, run.sides);
  } else if (run.countEnd.idleAt(nowMs)) {
    // Nothing will ever be sent again: the count ends here, its sessions cut.
    stopArrivals(run, prepared.shared);
    endConnections(prepared, nowMs, run.ended, run.sides);
  }
  const samples = prepared.shared.recorder.drain(nowMs, false);
  if (samples.length) opts.onSamples(metered(run, samples));
}

/** The run timer's period (ms): timeouts, drains and the generator's meter. */
function tickMsOf(config: AttackConfig): number {
  return Math.min(config.intervalMs, 50);
}

/** Samples with the worker's thread load of their intervals, when it is measured. */
function metered(run: RunState, samples: IntervalSample[]): IntervalSample[] {
  return run.meter === null ? samples : run.meter.attach(samples);
}

/**
 * Counts requests still waiting as `unfinished`, then ends the sessions before closing every connection,
 * so none takes a cut read for a reason to go on. Once per run.
 */
function endConnections(
  prepared: Prepared,
  nowMs: number,
  ended: AbortController | undefined,
  sides: ReadonlySet<LoadConnection>,
): void {
  const { shared, connections } = prepared;
  if (!shared.stopping) {
    for (const conn of connections) conn.countUnfinished(nowMs);
    for (const conn of sides) conn.countUnfinished(nowMs);
  }
  closeAll(shared, connections, ended);
  closeAll(shared, [...sides]);
}

/** Aborts exchanges past their deadline; the failed read is then counted as a timeout. */
export function watchdog(connections: Iterable<LoadConnection>, nowMs: number): void {
  for (const conn of connections) {
    if (conn.deadlineMs < nowMs) {
      conn.timedOut = true;
      conn.abort();
    }
  }
}

interface IdleSessions {
  /** Every session in progress waits on the script's own code. */
  idle(): boolean;
}

/** Why a worker's count ended short: its max duration (k6's), or its script sessions idle past timeout. */
class CountEnd {
  endedBy: LoadRunSummary["endedBy"];
  /** Since when every session has waited on its own code; null while one does not. */
  #idleSinceMs: number | null = null;
  readonly #unbounded: boolean;
  readonly #bounded: boolean;
  readonly #timeoutMs: number;

  constructor(config: AttackConfig, readonly sessions: IdleSessions | null) {
    const measuredMs = measuredDurationMs(config);
    this.#unbounded = !Number.isFinite(measuredMs);
    this.#bounded = loadBoundMs(config) < measuredMs;
    this.#timeoutMs = config.timeoutMs;
  }

  /** Whether the idle rule ends the count at `nowMs` (marks it so); called on each turn of the run timer. */
  idleAt(nowMs: number): boolean {
    if (this.sessions === null || !this.#unbounded || this.endedBy !== undefined) return false;
    if (!this.sessions.idle()) {
      this.#idleSinceMs = null;
      return false;
    }
    this.#idleSinceMs ??= nowMs;
    if (nowMs - this.#idleSinceMs <= this.#timeoutMs) return false;
    this.endedBy = "idle";
    return true;
  }

  /** At the load's end: its max duration, not its count nor a stop (`stopAtMs`), ended it at `endMs`. */
  ended(nowMs: number, endMs: number, stopAtMs: number): void {
    if (this.#bounded && stopAtMs === Infinity && nowMs >= endMs) this.endedBy ??= "maxDuration";
  }
}
