/**
 * @module
 * A load worker's isolate with a young generation sized for its run, and an old generation capped at
 * loadlab's memory limit (worker/memory_limit.ts). V8 keeps a session's objects in its
 * young generation only if that generation outlasts a turn of the whole crowd: 10,000 script sessions
 * waiting on one worker need 20 MB semi-spaces or more (their objects then die young instead of filling
 * the old generation and its full collections: 0.62-0.70x the fixed request's rate instead of 0.52x), while
 * a crowd of fixed requests or held WebSockets grows the same generation while it connects and keeps the
 * memory (45-65 MB more at 19,950 connections). Only `node:worker_threads` takes resource limits per
 * isolate (web Workers do not, and a `--max-semi-space-size` flag would override them for every isolate),
 * so the worker starts that way; its handle speaks the web Worker's shape (`onmessage` with `data`,
 * `onerror` with `message` and `preventDefault`) that pool.ts and collect.ts use.
 */
import type { Worker as NodeWorker } from "node:worker_threads";
import type { AttackConfig } from "../config.ts";
import { socketsOf } from "../socket_budget.ts";
import type { MainToWorker, WorkerToMain } from "./protocol.ts";
import { reachedHeapCap } from "./memory_limit.ts";
import { DEFAULT_YOUNG_MB, type Emitted, spawnLoadIsolate, takeEarlyWorker } from "./early_worker.ts";

/**
 * Semi-spaces of a worker that runs session scripts: 24 MB for up to 10,000 of its sessions, more for more
 * (a crowd's turn grows with it: 19,950 sessions ran 0.61x the fixed request's rate with 24 MB, 0.77x with
 * 48 MB, 36 MB between), at most 48 MB.
 */
const SESSIONS_SEMI_MB_PER_10K = 24;
const SESSIONS_SEMI_MB_MAX = 48;

/** A load worker as pool.ts and collect.ts drive it. */
export class LoadWorker {
  onmessage: ((event: { data: WorkerToMain }) => void) | null = null;
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null;
  /** When set, told instead of `onerror` that the isolate ended at its old generation's cap (pool.ts, before the load). */
  onheapcap: (() => void) | null = null;
  readonly #worker: NodeWorker;

  /**
   * `memoryLimitMb` is loadlab's (worker/memory_limit.ts), and caps the worker's old generation too: a
   * worker is ended by asking its isolate to stop, which Deno forces only 2 s later, and a synchronous loop
   * that allocates grew 4 GB more meanwhile (a following run was then cut as it started, the memory not yet
   * given back). At its cap the isolate stalls where it is, until it is forced to end.
   */
  constructor(config: AttackConfig, memoryLimitMb: number) {
    const youngMb = youngGenerationMbOf(config);
    const early = takeEarlyWorker(youngMb, memoryLimitMb);
    this.#worker = early?.worker ?? spawnLoadIsolate(youngMb, memoryLimitMb);
    // What an early isolate said (its "ready") reaches the pool once the pool listens, before what follows.
    let held: Emitted[] | null = early === null ? null : [...early.emitted];
    const emit = (e: Emitted) => {
      if (held !== null) held.push(e);
      else if ("data" in e) this.onmessage?.({ data: e.data as WorkerToMain });
      else this.#failed(e.err);
    };
    this.#worker.on("message", (data: unknown) => emit({ data }));
    this.#worker.on("error", (err: unknown) => emit({ err }));
    if (held !== null) {
      setTimeout(() => {
        const replay = held!;
        held = null;
        replay.forEach(emit);
      });
    }
  }

  #failed(err: unknown): void {
    if (this.onheapcap !== null && reachedHeapCap(err)) return this.onheapcap();
    const message = err instanceof Error ? err.message : String(err);
    this.onerror?.({ message, preventDefault: () => {} });
  }

  postMessage(msg: MainToWorker): void {
    this.#worker.postMessage(msg);
  }

  terminate(): void {
    // The promise says when the thread is gone; nothing waits for that.
    this.#worker.terminate().catch(() => {});
  }
}

/** The young generation (three semi-spaces) a worker of `config`'s run gets: see the constants above. */
export function youngGenerationMbOf(config: AttackConfig): number {
  if (config.script === undefined) return DEFAULT_YOUNG_MB;
  const sessions = Math.ceil(socketsOf(config).sockets / config.workers);
  const semiMb = Math.ceil(SESSIONS_SEMI_MB_PER_10K * sessions / 10_000);
  return 3 * Math.min(SESSIONS_SEMI_MB_MAX, Math.max(SESSIONS_SEMI_MB_PER_10K, semiMb));
}
