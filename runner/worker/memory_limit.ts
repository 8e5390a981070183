/**
 * @module
 * loadlab's memory (RSS, workers included) and its limit: past it worker/collect.ts ends the workers before
 * a script stalls at V8's heap limit; each isolate's old generation is capped at the limit too.
 */
import { getHeapStatistics } from "node:v8";
import type { AttackConfig } from "../config.ts";

/** How often the RSS is read (~2 µs a read): a 2 GB/s loop passes the limit by ~40 MB before it is seen. */
const MEMORY_CHECK_MS = 20;
/** The default limit's floor (+128 MB per worker past the first): 19,950 script sessions hold ~410 MB. */
const FLOOR_MB = 1_024;
const FLOOR_MB_PER_WORKER = 128;
/** The default limit's cap (plus 256 MB per worker past the first): a leaking script is named in seconds. */
const CAP_MB = 2_048;
const CAP_MB_PER_WORKER = 256;

/** The run's memory limit in MB: `maxMemoryMb`, else half the free memory under the cap; the floor wins. */
export function memoryLimitMbOf(
  config: Pick<AttackConfig, "maxMemoryMb" | "workers">,
  availableBytes = freeBytes(),
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): number {
  if (config.maxMemoryMb !== undefined) return config.maxMemoryMb;
  const more = config.workers - 1;
  const floorMb = FLOOR_MB + FLOOR_MB_PER_WORKER * more;
  const capMb = Math.min(CAP_MB + CAP_MB_PER_WORKER * more, heapLimitBytes / 2 ** 20);
  const halfMb = availableBytes > 0 ? availableBytes / 2 ** 21 : Infinity;
  return Math.max(floorMb, Math.floor(Math.min(capMb, halfMb)));
}

/** The limit where no run's config says it (a script's isolate outside a run). */
export function memoryLimitMbBesideRuns(maxMemoryMb?: number): number {
  return memoryLimitMbOf({ maxMemoryMb, workers: 1 });
}

/** How a phase that grew loadlab past `limitMb` is named, after the phase ("setup() grew ..."). */
export function memoryPassedText(limitMb: number): string {
  return `grew loadlab's memory past ${limitMb} MB (its limit; --max-memory-mb or maxMemoryMb to change)`;
}

/** What the machine has free now, in bytes; 0 when the system does not say. */
function freeBytes(): number {
  try {
    return Deno.systemMemoryInfo().available;
  } catch {
    return 0;
  }
}

const rssBytes = () => Deno.memoryUsage().rss;

/** How long an ended worker may take to give its memory back (Deno forces the end 2 s later). */
const GIVE_BACK_MS = 3_000;

/** Resolves once the RSS is back under `limitMb`, or after `GIVE_BACK_MS`, so a next run starts under it. */
export async function memoryGivenBack(limitMb: number, readRssBytes = rssBytes): Promise<void> {
  const untilMs = performance.now() + GIVE_BACK_MS;
  while (readRssBytes() / 2 ** 20 > limitMb && performance.now() < untilMs) {
    await new Promise((resolve) => setTimeout(resolve, MEMORY_CHECK_MS));
  }
}

export type MemoryWatch = { stop(): void };

/** Calls `onOver` once, with the RSS in MB, when loadlab's RSS passes `limitMb`. */
export function watchMemory(
  limitMb: number,
  onOver: (rssMb: number) => void,
  readRssBytes = rssBytes,
): MemoryWatch {
  const timer = setInterval(() => {
    const rssMb = readRssBytes() / 2 ** 20;
    if (rssMb <= limitMb) return;
    clearInterval(timer);
    onOver(rssMb);
  }, MEMORY_CHECK_MS);
  return { stop: () => clearInterval(timer) };
}

const SCRIPT_HEAP_FLOOR_MB = 128;
/** How far past what loadlab has left a script isolate's cap lets it grow, so its stall passes the limit. */
const SCRIPT_HEAP_PAST_MB = 64;

/** A script isolate's old-generation cap outside a load: the room under `limitMb` + SCRIPT_HEAP_PAST_MB. */
export function scriptHeapCapMb(limitMb: number, readRssBytes = rssBytes): number {
  const leftMb = Math.floor(limitMb - readRssBytes() / 2 ** 20);
  return Math.max(SCRIPT_HEAP_FLOOR_MB, leftMb + SCRIPT_HEAP_PAST_MB);
}

/** Whether a node:worker_threads error event says its isolate's module evaluation reached its heap cap. */
export function reachedHeapCap(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
}

export type MemoryCut = ReturnType<typeof cutPastMemoryLimit>;

/** Watches the RSS while script isolates run outside a load: past `limitMb` calls `end`. */
export function cutPastMemoryLimit(limitMb: number, end: () => void) {
  const { promise: over, resolve: resolveOver } = Promise.withResolvers<number>();
  let done = false;
  const cut = (rssMb: number) => {
    if (done) return;
    done = true;
    watch.stop();
    end();
    memoryGivenBack(limitMb).then(() => resolveOver(rssMb));
  };
  const watch = watchMemory(limitMb, cut);
  return {
    /** The RSS in MB seen past the limit, once `end` ran and the memory was given back. */
    over,
    /** Cuts now: an isolate reached its heap cap before the watch saw the RSS pass. */
    cut: () => cut(rssBytes() / 2 ** 20),
    stop: () => {
      done = true;
      watch.stop();
    },
  };
}
