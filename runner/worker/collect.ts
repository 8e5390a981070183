/**
 * @module
 * The main isolate's side of the workers once they are started (worker/pool.ts starts them): each
 * worker's samples passed on as they come, the summaries the workers send when done added up
 * (worker/done_totals.ts), and the deadline past
 * which a worker not yet done is stuck: from the end of its graceful stop, a worker whose heartbeat is
 * silent (`SILENT_MS`: code that never yields its event loop, a script's busy loop, a capture's regexp)
 * is stuck at once, and one whose loop still turns gets `STUCK_MARGIN_MS` more; before that, one whose
 * heartbeat has been silent for the request timeout plus the graceful stop (a count load's deadline is
 * its max duration, minutes away). A stuck worker is
 * terminated, what it counted since its last sample is read from its heartbeat (answers and failed
 * statuses, their latencies lost with it: `unrecordedLatencies`), and what it had in flight is passed on
 * as `unfinished` (cut by loadlab, not failed by the target), so the run always ends, a busy loop's within a second of its
 * graceful stop, and the other workers' results stay whole. A worker whose isolate
 * ended on its own (a session script's `Deno.exit`: its last word is "exited") is cut the same way at
 * once and counted apart (`exitedWorkers`); when loadlab's memory passes its limit (worker/memory_limit.ts:
 * a session script that keeps what it makes), every worker still running is cut so at once (`memoryCut`). A
 * cut worker ran until it was cut (or the load's end, if
 * sooner), so the run's duration is never shorter than that: a rate is never over time the run did not
 * have. Apart from the pool because this part lives for the whole run and keeps state per worker.
 */
import type { AttackConfig } from "../config.ts";
import { idleSample, type IntervalSample } from "../stats/sample.ts";
import type { FlowSample } from "../stats/flow_counters.ts";
import { HEARTBEAT_MS, type WorkerToMain } from "./protocol.ts";
import type { LoadWorker } from "./load_worker.ts";
import { modelDef } from "../load/models/mod.ts";
import type { LoadRunSummary } from "../load/load_run_types.ts";
import { DoneTotals } from "./done_totals.ts";
import { type MemoryWatch, watchMemory } from "./memory_limit.ts";
import { knowSecrets } from "../../results/redact.ts";

/**
 * How long past its graceful stop a worker whose event loop still turns may take to report it is done
 * before it is terminated: a worker's own end takes a few ms (drain, flows, the log's close), so 5 s
 * only ever passes a stuck one, even on a busy machine.
 */
const STUCK_MARGIN_MS = 5_000;
/**
 * A heartbeat older than this past the graceful stop is code that never yields: its worker is ended
 * then, not `STUCK_MARGIN_MS` later. Six missed beats: a busy core delays a live worker's timer by tens
 * of ms, and a stuck worker is ended within a second of its deadline. Each answer the worker records marks
 * the heartbeat too, so a worker whose loop turns rarely while it works through a backlog of answers
 * (a slow capture on each) keeps the margin.
 */
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

/** The workers' summaries as they come, and the deadline past which the ones not done are ended. */
interface Collecting {
  readonly done: Promise<LoadRunSummary>;
  /**
   * Ends the workers not done by `deadlineMs` (`performance.now()` time: their graceful stop's end)
   * whose heartbeat is silent, and the others `STUCK_MARGIN_MS` later; the soonest deadline given wins.
   */
  endBy(deadlineMs: number): void;
}

/**
 * The measured run's span in `performance.now()` time: where a cut worker's active time is counted; and
 * loadlab's memory limit, past which every worker still running is cut (worker/memory_limit.ts).
 */
interface LoadSpan {
  originMs: number;
  /** The load's own end (a count's max duration when it has no duration). */
  endMs: number;
  memoryLimitMb: number;
}

/** Collects from `workers` (their heartbeats beside), started with `config` over `span`, into `sinks`. */
export function collect(
  workers: LoadWorker[],
  heartbeats: Float64Array[],
  sinks: WorkerSinks,
  config: AttackConfig,
  span: LoadSpan,
): Collecting {
  return new WorkerCollector(workers, heartbeats, sinks, config, span);
}

class WorkerCollector implements Collecting {
  readonly done: Promise<LoadRunSummary>;
  readonly #totals = new DoneTotals();
  /** Per worker: done, and the index and in-flight gauge of its last sample. */
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
  #resolve: (summary: LoadRunSummary) => void = () => {};

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
    this.done = new Promise<LoadRunSummary>((resolve, reject) => {
      this.#resolve = resolve;
      for (const w of workers) {
        w.onerror = (e) => {
          e.preventDefault();
          reject(new LoadError(`load worker crashed: ${e.message}`));
        };
        w.onmessage = (e) => {
          const msg = e.data;
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
   * Before any deadline, ends each worker whose heartbeat has been silent longer than the request timeout
   * plus the graceful stop: nothing it holds could still be answered in time, as a count whose sessions
   * all wait on their own code past the timeout ends (`idle`). A count has no duration (its deadline is
   * its max duration, 10 minutes by default), so a busy loop or a regexp without end held it that long.
   */
  #endSilent(): void {
    const epochMs = performance.timeOrigin + performance.now();
    const boundMs = this.config.timeoutMs + this.config.gracefulStopMs;
    this.workers.forEach((_, k) => {
      if (!this.#finished[k] && epochMs - this.heartbeats[k][0] > boundMs) this.#cut(k, "stuck");
    });
  }

  /**
   * loadlab's memory passed its limit: every worker still running is cut, as a stuck one is. Which isolate
   * holds the memory cannot be told (they share one process, and one in a synchronous loop cannot answer),
   * and the run is ended either way, so none is left to grow it further.
   */
  #endOverMemory(rssMb: number): void {
    // Up: an RSS a fraction past the limit rounded down would read as at it, not past it.
    this.#totals.overMemory = { limitMb: this.span.memoryLimitMb, rssMb: Math.ceil(rssMb) };
    this.workers.forEach((_, k) => {
      if (!this.#finished[k]) this.#cut(k, "memory");
    });
  }

  endBy(ms: number): void {
    if (ms >= this.#deadlineMs || this.#finished.every((f) => f)) return;
    this.#deadlineMs = ms;
    clearTimeout(this.#timer);
    // A deadline past what a timer takes (days away) waits for a stop instead.
    if (ms - performance.now() < 2 ** 31 - 1) {
      this.#timer = setTimeout(() => this.#endStuck(), Math.max(0, ms - performance.now()));
    }
  }

  /**
   * Terminates every worker not done whose heartbeat is silent, or every one past the margin; looks
   * again a beat later while some are left.
   */
  #endStuck(): void {
    const nowMs = performance.now();
    const epochMs = performance.timeOrigin + nowMs;
    const late = nowMs >= this.#deadlineMs + STUCK_MARGIN_MS;
    this.workers.forEach((_, k) => {
      if (this.#finished[k]) return;
      if (late || epochMs - this.heartbeats[k][0] > SILENT_MS) this.#cut(k, "stuck");
    });
    if (this.#remaining > 0) this.#timer = setTimeout(() => this.#endStuck(), HEARTBEAT_MS);
  }

  /** A worker's message other than a failure. */
  #take(msg: WorkerToMain): void {
    switch (msg.type) {
      case "samples": {
        // A cut worker's counts were taken from its heartbeat: a message of its still queued adds none.
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

  /**
   * Ends worker `k` (stuck, its isolate exited, or loadlab over its memory limit): what it had in flight
   * counts as cut, not failed.
   */
  #cut(k: number, why: "stuck" | "exited" | "memory"): void {
    this.workers[k].terminate();
    this.#totals[why]++;
    const { originMs, endMs } = this.span;
    this.#totals.addActive(Math.max(0, Math.min(performance.now(), endMs) - originMs));
    const sample = idleSample(this.#lastIndex[k] + 1, 0, 0, modelDef(this.config.model).keepsUncorrected);
    // What a stuck worker counted since its last sample comes from its heartbeat (an exited one flushed
    // before its end): answers and failed statuses, not their latencies, which were in its isolate.
    const [answers, failed] = this.#received[k];
    const unsent = why === "exited" ? 0 : Math.max(0, this.heartbeats[k][2] - answers);
    if (unsent > 0) {
      sample.requests = unsent;
      sample.failedStatus = Math.max(0, this.heartbeats[k][3] - failed);
      sample.unrecordedLatencies = unsent;
      this.#totals.unrecorded += unsent;
    }
    // A stuck worker was handling a response: one it counted, else one in flight (its sample never
    // came); its script sessions in progress at its last heartbeat are cut with it, as a running one's
    // are when memory ends it. An exited one had what its last sample said.
    const inFlight = why === "exited" ? this.#lastInFlight[k] : Math.max(
      why === "stuck" && unsent === 0 ? 1 : 0,
      this.#lastInFlight[k] - unsent,
      this.heartbeats[k][1],
    );
    // Cut by loadlab, not failed by the target: unfinished, as requests the graceful stop cut.
    sample.unfinished = inFlight;
    this.sinks.onSamples([sample], k);
    this.#finish(k);
  }
}
