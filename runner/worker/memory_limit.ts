/**
 * @module
 * loadlab's own memory while the load runs, and its limit. The load workers are threads of this one
 * process, so its resident size (RSS) is theirs with the main isolate's, and a session script that keeps
 * what each iteration makes (a module-level array it pushes to) grows it without bound: at GB/s in a
 * synchronous loop. V8 does not say so: at its heap limit (~4 GB by default, or its `maxOldGenerationSizeMb`)
 * a worker's isolate stalls, silent (at 4.3 GB the run ended as "1 worker stuck"), and a web Worker's aborts
 * the whole process, results unwritten. So the main isolate reads the RSS every `MEMORY_CHECK_MS` and, once
 * past the limit, worker/collect.ts ends the workers still running (what they counted kept) and the run
 * names memory. Deno forces an isolate asked to end only 2 s later, so each worker's old generation is
 * capped at the limit too (worker/load_worker.ts): one in a synchronous loop stalls there instead of growing
 * on meanwhile, and the run's end waits for that memory to be given back. The same watch and cap bound a
 * session script where no load runs: its top level as the load workers import it (worker/pool.ts), and
 * its own isolate's import, setup(), teardown() and k6 handleSummary (script/script_host.ts), each ended
 * past the limit with an error naming its phase. Apart from the collector because the limit is chosen from
 * the machine, before the workers start, and the watch is a timer of its own.
 */
import { getHeapStatistics } from "node:v8";
import type { AttackConfig } from "../config.ts";

/**
 * How often the RSS is read (a read takes ~2 µs): a synchronous loop that allocates 2 GB/s passes the
 * limit by ~40 MB before it is seen, and by a few tens more while its worker is ended.
 */
const MEMORY_CHECK_MS = 20;
/**
 * The default limit is never below this (and 128 MB per worker past the first, each isolate's own heap
 * and young generation): the largest crowd measured, 19,950 script sessions on one worker, holds ~410 MB;
 * a crowd of fixed requests ~250 MB.
 */
const FLOOR_MB = 1_024;
const FLOOR_MB_PER_WORKER = 128;
/**
 * Nor above this (and 256 MB per worker past the first) unless asked for: far past any run measured, and
 * close enough that a script which keeps what it makes is named in seconds, not after minutes of swap.
 */
const CAP_MB = 2_048;
const CAP_MB_PER_WORKER = 256;

/**
 * The memory limit of `config`'s run in MB: its `maxMemoryMb`, else half of what the machine has available
 * now (`availableBytes`, before the workers start), between the floor and the cap above, and below one
 * isolate's heap limit (`heapLimitBytes`), at which a worker stalls before the process would pass the
 * limit. The floor wins over the rest: a smaller machine gets the memory the runs measured need.
 */
export function memoryLimitMbOf(
  config: Pick<AttackConfig, "maxMemoryMb" | "workers">,
  availableBytes = freeBytes(),
  heapLimitBytes = getHeapStatistics().heap_size_limit,
): number {
  if (config.maxMemoryMb !== undefined) return config.maxMemoryMb;
  const more = config.workers - 1;
  const floorMb = FLOOR_MB + FLOOR_MB_PER_WORKER * more;
  const capMb = Math.min(CAP_MB + CAP_MB_PER_WORKER * more, heapLimitBytes / 2 ** 20);
  // 0 where the system does not say: the cap, as if the machine had plenty.
  const halfMb = availableBytes > 0 ? availableBytes / 2 ** 21 : Infinity;
  return Math.max(floorMb, Math.floor(Math.min(capMb, halfMb)));
}

/**
 * The limit where no run's config says it (a script's isolate read before the plan, or after the runs):
 * `maxMemoryMb` (`--max-memory-mb`) when given, else one worker's default.
 */
export function memoryLimitMbBesideRuns(maxMemoryMb?: number): number {
  return memoryLimitMbOf({ maxMemoryMb, workers: 1 });
}

/** How a phase that grew loadlab past `limitMb` is named, after the phase ("setup() grew ..."). */
export function memoryPassedText(limitMb: number): string {
  return `grew loadlab's memory past ${limitMb} MB (its limit; --max-memory-mb or maxMemoryMb to change)`;
}

/**
 * What the machine has free now, in bytes; 0 when the system does not say (or sys access was not granted).
 */
function freeBytes(): number {
  try {
    return Deno.systemMemoryInfo().available;
  } catch {
    return 0;
  }
}

/**
 * How long a worker ended over the limit may take to give its memory back: Deno forces an isolate asked to
 * stop to end 2 s later, and one in a synchronous loop ends no sooner.
 */
const GIVE_BACK_MS = 3_000;

/**
 * Resolves once loadlab's RSS is back under `limitMb` (the workers ended over it are gone), or after
 * `GIVE_BACK_MS`: a run that follows would otherwise start over the limit and be cut as it starts.
 */
export async function memoryGivenBack(
  limitMb: number,
  readRssBytes = () => Deno.memoryUsage().rss,
): Promise<void> {
  const untilMs = performance.now() + GIVE_BACK_MS;
  while (readRssBytes() / 2 ** 20 > limitMb && performance.now() < untilMs) {
    await new Promise((resolve) => setTimeout(resolve, MEMORY_CHECK_MS));
  }
}

/** A watch of loadlab's RSS; `stop()` ends it. */
export interface MemoryWatch {
  stop(): void;
}

/**
 * Calls `onOver` once, with the RSS in MB, when loadlab's RSS passes `limitMb`; `readRssBytes` is
 * `Deno.memoryUsage().rss` unless a test gives its own.
 */
export function watchMemory(
  limitMb: number,
  onOver: (rssMb: number) => void,
  readRssBytes = () => Deno.memoryUsage().rss,
): MemoryWatch {
  const timer = setInterval(() => {
    const rssMb = readRssBytes() / 2 ** 20;
    if (rssMb <= limitMb) return;
    clearInterval(timer);
    onOver(rssMb);
  }, MEMORY_CHECK_MS);
  return { stop: () => clearInterval(timer) };
}

/**
 * The least old generation a script's own isolate gets: its module graph (k6's shims too) loads in far less.
 */
const SCRIPT_HEAP_FLOOR_MB = 128;
/**
 * How far past what loadlab has left its cap lets a script's isolate grow: an isolate stalled at its cap is
 * not heard from, so the stall must take loadlab past the limit for the watch to see it and end it.
 */
const SCRIPT_HEAP_PAST_MB = 64;

/**
 * The old generation's cap of an isolate started now to run a script's code outside a load: what loadlab
 * has left under `limitMb` and a little more, at least the floor above. A synchronous loop that allocates
 * outgrows the watch's reads and stalls, or ends, at its cap: capped at the whole limit, a loadlab that
 * held 400 MB reached 1.07 GB past a 666 MB limit before the isolate was ended.
 */
export function scriptHeapCapMb(limitMb: number, readRssBytes = () => Deno.memoryUsage().rss): number {
  const leftMb = Math.floor(limitMb - readRssBytes() / 2 ** 20);
  return Math.max(SCRIPT_HEAP_FLOOR_MB, leftMb + SCRIPT_HEAP_PAST_MB);
}

/**
 * Whether `err`, a node:worker_threads worker's error event, says its isolate ended at its heap's cap: it
 * does so when its module's evaluation reaches the cap (in a later task it stalls there instead).
 */
export function reachedHeapCap(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
}

/** A watch that ends what grew loadlab past its limit: `over` resolves once that memory is given back. */
export interface MemoryCut {
  /** The RSS in MB seen past the limit, once `end` ran and the memory was given back (or its wait passed). */
  over: Promise<number>;
  /**
   * Cuts now, as past the limit: an isolate said it reached its heap's cap (the limit) before the watch saw
   * it.
   */
  cut(): void;
  stop(): void;
}

/**
 * Watches loadlab's RSS while isolates that run a script's code do what no load's collector watches (its
 * import, setup(), teardown(), handleSummary): past `limitMb` it calls `end` (which terminates them) and
 * resolves `over` once their memory is given back, so what follows does not start over the limit.
 */
export function cutPastMemoryLimit(limitMb: number, end: () => void): MemoryCut {
  let resolveOver = (_rssMb: number) => {};
  const over = new Promise<number>((resolve) => resolveOver = resolve);
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
    over,
    cut: () => cut(Deno.memoryUsage().rss / 2 ** 20),
    stop: () => {
      done = true;
      watch.stop();
    },
  };
}
