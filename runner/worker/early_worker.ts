/**
 * @module
 * A load worker's isolate started before its run's config is known, so it loads its modules while the
 * command's own modules load and its config is parsed (each about 100 ms: one after the other, the first
 * request waits for both). It is started with the limits of a run of one worker at the default memory
 * limit, with or without a session script (`attack`'s usual run, a script's); the first load worker asking
 * for the same limits takes it (load_worker.ts), and one asking for others ends it unused.
 */
import { Worker as NodeWorker } from "node:worker_threads";
import { memoryLimitMbOf } from "./memory_limit.ts";

/**
 * Every load worker's young generation but a session script's: 4 MB semi-spaces, the size the crowds'
 * memory goals were met with (load_worker.ts).
 */
export const DEFAULT_YOUNG_MB = 12;
/** A session script's worker's, up to 10,000 sessions: three semi-spaces of 24 MB (load_worker.ts). */
export const SESSIONS_YOUNG_MB = 72;

/** What an isolate emitted before its load worker listened: a message, or an error. */
export type Emitted = { data: unknown } | { err: unknown };

interface Early {
  worker: NodeWorker;
  youngMb: number;
  memoryLimitMb: number;
  emitted: Emitted[];
  onMessage(data: unknown): void;
  onError(err: unknown): void;
}

let early: Early | null = null;

/** A load worker isolate with these limits (see load_worker.ts for why through `node:worker_threads`). */
export function spawnLoadIsolate(youngMb: number, memoryLimitMb: number): NodeWorker {
  return new NodeWorker(new URL("./worker.ts", import.meta.url), {
    resourceLimits: { maxYoungGenerationSizeMb: youngMb, maxOldGenerationSizeMb: memoryLimitMb },
  });
}

/**
 * Starts the early isolate, keeping what it emits (its "ready", or why it failed) for its taker; resolves
 * when it first emitted, if not taken before.
 */
export function startEarlyWorker(youngMb = DEFAULT_YOUNG_MB): Promise<void> {
  const memoryLimitMb = memoryLimitMbOf({ workers: 1 });
  const worker = spawnLoadIsolate(youngMb, memoryLimitMb);
  const emitted: Emitted[] = [];
  const { promise, resolve } = Promise.withResolvers<void>();
  const onMessage = (data: unknown) => resolve(void emitted.push({ data }));
  const onError = (err: unknown) => resolve(void emitted.push({ err }));
  worker.on("message", onMessage);
  worker.on("error", onError);
  early = { worker, youngMb, memoryLimitMb, emitted, onMessage, onError };
  return promise;
}

/**
 * The early isolate when it has these limits, with what it emitted so far (its listeners removed); null
 * when there is none or its limits differ (then it is ended: no run takes it later).
 */
export function takeEarlyWorker(
  youngMb: number,
  memoryLimitMb: number,
): { worker: NodeWorker; emitted: Emitted[] } | null {
  const taken = early;
  early = null;
  if (taken === null) return null;
  taken.worker.off("message", taken.onMessage);
  taken.worker.off("error", taken.onError);
  if (taken.youngMb === youngMb && taken.memoryLimitMb === memoryLimitMb) return taken;
  taken.worker.terminate().catch(() => {});
  return null;
}
