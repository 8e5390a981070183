/**
 * @module
 * A load worker's isolate through `node:worker_threads` (per-isolate heap limits); one may start early.
 */
import { Worker as NodeWorker } from "node:worker_threads";
import type { MainToWorker, WorkerToMain } from "./protocol.ts";
import { memoryLimitMbOf, reachedHeapCap } from "./memory_limit.ts";

/** Every load worker's young generation but a session script's: 4 MB semi-spaces (met the memory goals). */
export const DEFAULT_YOUNG_MB = 12;
/** A session script's worker's, up to 10,000 sessions: three semi-spaces of 24 MB. */
export const SESSIONS_YOUNG_MB = 72;

/** What an isolate emitted before its load worker listened: a message, or an error. */
type Emitted = { data: unknown } | { err: unknown };

type Isolate = { worker: NodeWorker; youngMb: number; memoryLimitMb: number; emitted: Emitted[] };
/** Isolates waiting for a load worker of their limits: the early one, and those kept after their run. */
const waiting: Isolate[] = [];
let keeping = false;

/** From now on the process (the tests', of many runs) starts each isolate once: see `release`. */
export const keepLoadWorkers = () => void (keeping = true);

/** A load worker isolate with these limits (through `node:worker_threads`: see the module comment). */
function spawnLoadIsolate(youngMb: number, memoryLimitMb: number): NodeWorker {
  return new NodeWorker(new URL("./worker.ts", import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: youngMb, maxOldGenerationSizeMb: memoryLimitMb },
  });
}

/** Starts the early isolate, keeping what it emits for its taker; resolves when it first emitted. */
export function startEarlyWorker(youngMb = DEFAULT_YOUNG_MB): Promise<void> {
  const memoryLimitMb = memoryLimitMbOf({ workers: 1 });
  const worker = spawnLoadIsolate(youngMb, memoryLimitMb);
  const emitted: Emitted[] = [];
  const { promise, resolve } = Promise.withResolvers<void>();
  worker.on("message", (data: unknown) => resolve(void emitted.push({ data })));
  worker.on("error", (err: unknown) => resolve(void emitted.push({ err })));
  waiting.push({ worker, youngMb, memoryLimitMb, emitted });
  return promise;
}

/** A waiting isolate of these limits with what it emitted, else null; an early one of others is ended. */
export function takeEarlyWorker(youngMb: number, memoryLimitMb: number): Isolate | null {
  const k = waiting.findIndex((w) => w.youngMb === youngMb && w.memoryLimitMb === memoryLimitMb);
  const taken = k < 0 ? null : waiting.splice(k, 1)[0];
  if (!keeping) waiting.splice(0).forEach((w) => w.worker.terminate().catch(() => {}));
  taken?.worker.removeAllListeners("message").removeAllListeners("error").ref();
  return taken;
}

/** A load worker as pool.ts and collect.ts drive it. */
export class LoadWorker {
  onmessage: ((msg: WorkerToMain) => void) | null = null;
  /** Told why the isolate failed (a crash, an uncaught error), in words. */
  onerror: ((message: string) => void) | null = null;
  /** Told instead of `onerror` that the isolate ended at its old generation's cap (before the load). */
  onheapcap: (() => void) | null = null;
  readonly #worker: NodeWorker;
  /** Its run's "done" said the run left nothing open, and it is not ended: it may serve another run. */
  #reusable = false;

  /** `memoryLimitMb` caps the old generation: a loop stalls there in the 2 s Deno takes to end an isolate. */
  constructor(readonly youngMb: number, readonly memoryLimitMb: number) {
    const early = takeEarlyWorker(youngMb, memoryLimitMb);
    this.#worker = early?.worker ?? spawnLoadIsolate(youngMb, memoryLimitMb);
    // What an early isolate said (its "ready") reaches the pool once the pool listens, before what follows.
    let held: Emitted[] | null = [...(early?.emitted ?? [])];
    const emit = (e: Emitted) => {
      if (held !== null) held.push(e);
      else if ("data" in e) this.onmessage?.(e.data as WorkerToMain);
      else this.#failed(e.err);
    };
    this.#worker.on("message", (data: WorkerToMain) => {
      if (data.type === "done") this.#reusable = data.open === 0;
      emit({ data });
    });
    this.#worker.on("error", (err: unknown) => emit({ err }));
    setTimeout(() => {
      const replay = held!;
      held = null;
      replay.forEach(emit);
    });
  }

  #failed(err: unknown): void {
    if (this.onheapcap !== null && reachedHeapCap(err)) return this.onheapcap();
    this.onerror?.(err instanceof Error ? err.message : String(err));
  }

  postMessage(msg: MainToWorker): void {
    this.#worker.postMessage(msg);
  }

  terminate(): void {
    this.#reusable = false;
    // The promise says when the thread is gone; nothing waits for that.
    this.#worker.terminate().catch(() => {});
  }

  /** Ends the isolate, or parks it when kept ones are asked for and its run ended well (`keep`, reusable). */
  release(keep: boolean): void {
    if (!keep || !keeping || !this.#reusable) return this.terminate();
    const { youngMb, memoryLimitMb } = this;
    const parked = { worker: this.#worker, youngMb, memoryLimitMb, emitted: [{ data: { type: "ready" } }] };
    // A parked isolate that fails is dropped, not handed to a run.
    this.#worker.removeAllListeners("message").removeAllListeners("error").unref();
    this.#worker.on("error", () => waiting.splice(waiting.indexOf(parked) >>> 0, 1));
    waiting.push(parked);
  }
}
