/**
 * @module
 * The main isolate's side of the started workers: passes samples on, adds up summaries, ends stuck ones.
 * A cut worker (stuck, exited, over the memory limit) ends with its in-flight requests `unfinished`.
 */
import type { AttackConfig } from "../config.ts";
import { idleSample, type IntervalSample } from "../stats/sample.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import { HEARTBEAT_MS, type WorkerToMain } from "./protocol.ts";
import type { LoadWorker } from "./load_worker.ts";
import { keepsUncorrected } from "../load/models/mod.ts";
import type { LoadRunSummary } from "../load/load_run_types.ts";
import { addWsParts, type WsParts } from "../../results/ws_totals.ts";
import { type MemoryWatch, watchMemory } from "./memory_limit.ts";
import { knowSecrets } from "../../results/redact.ts";
import type { RunResult } from "../../results/mod.ts";

/** Past its graceful stop, a worker whose loop still turns gets this long (its own end takes ms). */
const STUCK_MARGIN_MS = 5_000;
/** Six missed beats past the graceful stop (a busy core delays live timers tens of ms): code never yields. */
const SILENT_MS = 6 * HEARTBEAT_MS;

/** A failure of the load generator itself (not of the target). */
export class LoadError extends Error {
  override name = "LoadError";
}

/** A stop (Ctrl-C, SIGTERM) came while the load workers started or prepared: no load was sent. */
export class StoppedBeforeLoad extends Error {
  override name = "StoppedBeforeLoad";
}

/** Where the workers' samples and flow totals go as they arrive. */
export interface WorkerSinks {
  /** One worker's samples, in its interval order (which is how the aggregator knows one is complete). */
  onSamples(samples: IntervalSample[], workerIndex: number): void;
  /** Each worker's flow totals, once per worker, before it is done (only when the load has flows). */
  onFlows?(flows: FlowSample[]): void;
}

/** The measured run's span in `performance.now()` time (a cut worker's active time) and the memory limit. */
interface LoadSpan {
  originMs: number;
  /** The load's own end (a count's max duration when it has no duration). */
  endMs: number;
  memoryLimitMb: number;
}

/** Collects from `workers` (their heartbeats beside), started with `config` over `span`, into `sinks`. */
export class WorkerCollector {
  readonly done: Promise<DoneSummary>;
  readonly #totals = new DoneTotals();
  readonly #finished: boolean[];
  readonly #lastIndex: number[];
  readonly #lastInFlight: number[];
  /** Per worker: the answers, and those with a failed status, its samples brought so far. */
  readonly #received: Array<[number, number]>;
  #remaining: number;
  #deadlineMs = Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #watch: ReturnType<typeof setInterval> | undefined;
  readonly #memory: MemoryWatch;
  #resolve: (summary: DoneSummary) => void = () => {};

  constructor(
    readonly workers: LoadWorker[],
    readonly heartbeats: Float64Array[],
    readonly sinks: WorkerSinks,
    readonly config: AttackConfig,
    readonly span: LoadSpan,
  ) {
    this.#finished = workers.map(() => false);
    this.#lastIndex = workers.map(() => -1);
    this.#lastInFlight = workers.map(() => 0);
    this.#received = workers.map(() => [0, 0]);
    this.#remaining = workers.length;
    this.done = new Promise<DoneSummary>((resolve, reject) => {
      this.#resolve = resolve;
      for (const w of workers) {
        w.onerror = (message) => reject(new LoadError(`load worker crashed: ${message}`));
        w.onmessage = (msg) => {
          if (msg.type === "failed") {
            reject(new LoadError(`load worker ${msg.workerIndex} failed: ${msg.message}`));
          } else this.#take(msg);
        };
      }
    });
    this.#watch = setInterval(() => this.#endSilent(), SILENT_MS);
    this.#memory = watchMemory(span.memoryLimitMb, (rssMb) => this.#endOverMemory(rssMb));
    this.done.finally(() => {
      clearTimeout(this.#timer);
      clearInterval(this.#watch);
      this.#memory.stop();
    }).catch(() => {});
  }

  /**
   * Before any deadline, ends a worker silent past the request timeout plus the graceful stop, and never
   * sooner than `SILENT_MS`: a live worker beats only each `HEARTBEAT_MS`, whatever its timeout (`-t 1ms`).
   */
  #endSilent(): void {
    this.#cutSilent(Math.max(SILENT_MS, this.config.timeoutMs + this.config.gracefulStopMs));
  }

  /** Cuts as stuck each unfinished worker whose heartbeat is older than `boundMs` (every one when `all`). */
  #cutSilent(boundMs: number, all = false): void {
    const epochMs = performance.timeOrigin + performance.now();
    this.workers.forEach((_, k) => {
      if (!this.#finished[k] && (all || epochMs - this.heartbeats[k][0] > boundMs)) this.#cut(k, "stuck");
    });
  }

  /** Past the memory limit every running worker is cut: which isolate holds the memory cannot be told. */
  #endOverMemory(rssMb: number): void {
    this.#totals.overMemory = { limitMb: this.span.memoryLimitMb, rssMb: Math.ceil(rssMb) };
    this.workers.forEach((_, k) => {
      if (!this.#finished[k]) this.#cut(k, "memory");
    });
  }

  /** Ends silent unfinished workers at `ms` (the graceful stop's end), the rest a margin later. */
  endBy(ms: number): void {
    if (ms >= this.#deadlineMs || this.#finished.every((f) => f)) return;
    this.#deadlineMs = ms;
    clearTimeout(this.#timer);
    if (ms - performance.now() < 2 ** 31 - 1) {
      this.#timer = setTimeout(() => this.#endStuck(), Math.max(0, ms - performance.now()));
    }
  }

  /** Terminates the silent workers, or all once past the margin; looks again a beat later. */
  #endStuck(): void {
    this.#cutSilent(SILENT_MS, performance.now() >= this.#deadlineMs + STUCK_MARGIN_MS);
    if (this.#remaining > 0) this.#timer = setTimeout(() => this.#endStuck(), HEARTBEAT_MS);
  }

  #take(msg: WorkerToMain): void {
    switch (msg.type) {
      case "samples": {
        if (this.#finished[msg.workerIndex]) break;
        const received = this.#received[msg.workerIndex];
        for (const s of msg.samples) {
          received[0] += s.requests;
          received[1] += s.failedStatus;
        }
        const last = msg.samples[msg.samples.length - 1];
        if (last !== undefined) {
          this.#lastIndex[msg.workerIndex] = Math.max(this.#lastIndex[msg.workerIndex], last.index);
          this.#lastInFlight[msg.workerIndex] = last.inFlight;
        }
        this.sinks.onSamples(msg.samples, msg.workerIndex);
        break;
      }
      case "flows":
        this.sinks.onFlows?.(msg.flows);
        break;
      case "done":
        knowSecrets(msg.secrets);
        this.#totals.add(msg.summary);
        this.#finish(msg.workerIndex);
        break;
      case "exited":
        if (!this.#finished[msg.workerIndex]) this.#cut(msg.workerIndex, "exited");
        break;
    }
  }

  #finish(workerIndex: number): void {
    this.#finished[workerIndex] = true;
    if (--this.#remaining > 0) return;
    clearTimeout(this.#timer);
    this.#resolve(this.#totals.summary());
  }

  /** Ends worker `k`: what it had in flight counts as unfinished (cut by loadlab, not the target). */
  #cut(k: number, why: "stuck" | "exited" | "memory"): void {
    this.workers[k].terminate();
    this.#totals[why]++;
    const { originMs, endMs } = this.span;
    this.#totals.addActive(Math.max(0, Math.min(performance.now(), endMs) - originMs));
    const sample = idleSample(this.#lastIndex[k] + 1, 0, 0, keepsUncorrected(this.config));
    // Counts since the last sample come from the heartbeat (an exited worker flushed); latencies are lost.
    const [answers, failed] = this.#received[k];
    const unsent = why === "exited" ? 0 : Math.max(0, this.heartbeats[k][2] - answers);
    if (unsent > 0) {
      sample.requests = unsent;
      sample.failedStatus = Math.max(0, this.heartbeats[k][3] - failed);
      sample.unrecordedLatencies = unsent;
      this.#totals.unrecorded += unsent;
    }
    // A stuck worker was handling a response; an exited one had what its last sample said.
    const inFlight = why === "exited" ? this.#lastInFlight[k] : Math.max(
      why === "stuck" && unsent === 0 ? 1 : 0,
      this.#lastInFlight[k] - unsent,
      this.heartbeats[k][1],
    );
    sample.unfinished = inFlight;
    this.sinks.onSamples([sample], k);
    this.#finish(k);
  }
}

type TlsSession = LoadRunSummary["tlsSession"];

/** The done workers' summaries added up: what the runner reads, and `part` in results' shape. */
export type DoneSummary = ReturnType<DoneTotals["summary"]>;

export class DoneTotals {
  #activeMs = 0;
  #tailMs = 0;
  #maxConnectsInFlight = 0;
  #logError: string | undefined;
  #dataRanOut = 0;
  stuck = 0;
  exited = 0;
  /** Workers ended when loadlab's memory passed `overMemory.limitMb`. */
  memory = 0;
  overMemory: { limitMb: number; rssMb: number } | undefined;
  /** Answers a stuck worker counted that reached no sample: counted, their latencies lost with it. */
  unrecorded = 0;
  #endedBy: LoadRunSummary["endedBy"];
  #tlsSession: TlsSession = null;
  #maxStreamsPerConnection = 0;
  readonly #ws: WsParts[] = [];

  add(summary: LoadRunSummary): void {
    this.addActive(summary.activeMs);
    this.#tailMs = Math.max(this.#tailMs, summary.tailMs ?? 0);
    // Each worker's own maximum, summed: an upper bound of the run's.
    this.#maxConnectsInFlight += summary.maxConnectsInFlight;
    this.#logError ??= summary.logError;
    this.#endedBy ??= summary.endedBy;
    this.#tlsSession = mergeTlsSessions(this.#tlsSession, summary.tlsSession);
    if (summary.dataRanOut) this.#dataRanOut++;
    if (summary.ws) this.#ws.push(summary.ws);
    this.#maxStreamsPerConnection = Math.max(this.#maxStreamsPerConnection, summary.maxStreamsPerConnection);
  }

  /** A worker's time from the measured start to the end of its load: the run's is the longest. */
  addActive(activeMs: number): void {
    this.#activeMs = Math.max(this.#activeMs, activeMs);
  }

  summary() {
    const part: Partial<RunResult> = {
      maxConnectsInFlight: this.#maxConnectsInFlight,
      ...(this.#tlsSession !== null ? { tls: { ...this.#tlsSession } } : {}),
      ...(this.#ws.length > 0 ? { ws: addWsParts(this.#ws) } : {}),
      ...(this.#dataRanOut > 0 ? { dataRanOutWorkers: this.#dataRanOut } : {}),
      // A stuck worker's counts since its last sample come from its heartbeat; their latencies do not.
      ...(this.stuck > 0 ? { incomplete: true, stuckWorkers: this.stuck } : {}),
      ...(this.unrecorded > 0 ? { unrecordedLatencies: this.unrecorded } : {}),
      ...(this.exited > 0 ? { incomplete: true, exitedWorkers: this.exited } : {}),
      ...(this.overMemory
        ? { incomplete: true, memoryCut: { ...this.overMemory, workers: this.memory } }
        : {}),
      ...(this.#endedBy ? { incomplete: true, endedBy: this.#endedBy } : {}),
      ...(this.#tailMs >= 1 ? { tailMs: Math.round(this.#tailMs) } : {}),
    };
    return {
      activeMs: this.#activeMs,
      maxStreamsPerConnection: this.#maxStreamsPerConnection,
      ...(this.#logError ? { logError: this.#logError } : {}),
      part,
    };
  }
}

/** The first worker's negotiated session, with every worker's handshake counts added up. */
function mergeTlsSessions(first: TlsSession, next: TlsSession): TlsSession {
  if (first === null || next === null) return first ?? next;
  const sum = (a?: number | null, b?: number | null) => a == null || b == null ? a ?? b : a + b;
  return {
    ...first,
    handshakes: sum(first.handshakes, next.handshakes),
    resumed: sum(first.resumed, next.resumed),
  };
}
