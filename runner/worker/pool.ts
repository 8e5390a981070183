/**
 * @module
 * Main-isolate side of the workers: spawns N worker isolates, waits until all are loaded, starts them
 * at one common instant, forwards their interval samples to one callback (the same merge path for 1
 * or N workers) and resolves when every worker has finished its share. A failing worker stops the
 * others and rejects with a `LoadError`.
 */
import type { AttackConfig } from "../config.ts";
import type { IntervalSample } from "../stats/recorder.ts";
import type { FlowSample } from "../stats/flow_recorder.ts";
import type { MainToWorker, WorkerToMain } from "./protocol.ts";

const READY_TIMEOUT_MS = 30_000;
/** Lead time between "start" and the first send, so every worker has received the message. */
const START_LEAD_MS = 30;

/** A failure of the load generator itself (not of the target). */
export class LoadError extends Error {
  override name = "LoadError";
}

export interface PoolOptions {
  onSamples(samples: IntervalSample[]): void;
  /** Each worker's flow totals, once per worker, before it is done (only when the load has flows). */
  onFlows?(flows: FlowSample[]): void;
  signal?: AbortSignal;
}

/** Runs the load in `config.workers` isolates; resolves with the longest active time of any worker. */
export async function runWorkers(config: AttackConfig, opts: PoolOptions): Promise<{ activeMs: number }> {
  const count = config.workers;
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" }),
  );
  const send = (w: Worker, msg: MainToWorker) => w.postMessage(msg);
  try {
    await allReady(workers);
    const startAtEpochMs = performance.timeOrigin + performance.now() + START_LEAD_MS;
    const finished = collect(workers, opts);
    workers.forEach((w, workerIndex) =>
      send(w, { type: "start", config, workerIndex, workerCount: count, startAtEpochMs })
    );
    const onAbort = () => workers.forEach((w) => send(w, { type: "stop" }));
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      return await finished;
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
    }
  } finally {
    workers.forEach((w) => w.terminate());
  }
}

function allReady(workers: Worker[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let ready = 0;
    const timer = setTimeout(
      () => reject(new LoadError(`load workers not ready within ${READY_TIMEOUT_MS} ms`)),
      READY_TIMEOUT_MS,
    );
    for (const w of workers) {
      w.onerror = (e) => {
        e.preventDefault();
        clearTimeout(timer);
        reject(new LoadError(`load worker failed to start: ${e.message}`));
      };
      w.onmessage = (e: MessageEvent<WorkerToMain>) => {
        if (e.data.type === "ready" && ++ready === workers.length) {
          clearTimeout(timer);
          resolve();
        }
      };
    }
  });
}

function collect(workers: Worker[], opts: PoolOptions): Promise<{ activeMs: number }> {
  return new Promise((resolve, reject) => {
    let remaining = workers.length;
    let activeMs = 0;
    for (const w of workers) {
      w.onerror = (e) => {
        e.preventDefault();
        reject(new LoadError(`load worker crashed: ${e.message}`));
      };
      w.onmessage = (e: MessageEvent<WorkerToMain>) => {
        const msg = e.data;
        switch (msg.type) {
          case "samples":
            opts.onSamples(msg.samples);
            break;
          case "flows":
            opts.onFlows?.(msg.flows);
            break;
          case "done":
            activeMs = Math.max(activeMs, msg.summary.activeMs);
            if (--remaining === 0) resolve({ activeMs });
            break;
          case "failed":
            reject(new LoadError(`load worker ${msg.workerIndex} failed: ${msg.message}`));
            break;
          case "ready":
            break;
        }
      };
    }
  });
}
