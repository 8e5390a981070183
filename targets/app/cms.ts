/**
 * @module
 * The CMS-like `/home` page (docs/studies/cache-burst.md): `queries` timer-bound queries per page on a pool
 * of `poolSize` slots; a slot wait over `acquireTimeoutMs` answers 503, as knex does.
 */
import type { CmsSpec } from "../spec.ts";
import { defined } from "../../validation/defined.ts";

export type CmsOptions = Required<CmsSpec>;
/** The `cms` option's defaults: 4 slots x (3 queries of 20 ms) = about 66 pages/s. */
const CMS_DEFAULTS: CmsOptions = { poolSize: 4, queryMs: 20, queries: 3, acquireTimeoutMs: 5000 };

export function resolveCms(spec: CmsSpec = {}): CmsOptions {
  return { ...CMS_DEFAULTS, ...defined(spec) };
}

/** Cumulative counters, exposed in the target's stats with a `cms` prefix. */
interface PoolStats {
  queries: number;
  /** Queries that waited because every slot was busy. */
  queued: number;
  /** Mean wait = queueWaitMs / queries. */
  queueWaitMs: number;
  /** Their pages answered 503. */
  acquireTimeouts: number;
}

export class PoolTimeoutError extends Error {
  override name = "PoolTimeoutError";
}

interface Waiter {
  grant: () => void;
  sinceMs: number;
  timer?: ReturnType<typeof setTimeout>;
}

/** A FIFO pool of `size` slots; `acquire` resolves with a release function. */
export class QueryPool {
  readonly stats: PoolStats = { queries: 0, queued: 0, queueWaitMs: 0, acquireTimeouts: 0 };
  #busy = 0;
  /** The queue array also holds timed-out waiters, skipped. */
  #waiting = 0;
  #queue: Waiter[] = [];
  #head = 0;

  constructor(
    readonly size: number,
    readonly acquireTimeoutMs = 0,
    readonly nowMs = () => performance.now(),
  ) {}

  get queueLength(): number {
    return this.#waiting;
  }

  /** A slot, now or when one frees up; rejects with PoolTimeoutError after the acquire timeout. */
  acquire(): Promise<() => void> {
    if (this.#busy < this.size && this.#queue.length === this.#head) {
      this.#busy++;
      this.stats.queries++;
      return Promise.resolve(() => this.#release());
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        sinceMs: this.nowMs(),
        grant: () => {
          clearTimeout(waiter.timer);
          this.#waiting--;
          this.stats.queries++;
          this.stats.queued++;
          this.stats.queueWaitMs += this.nowMs() - waiter.sinceMs;
          resolve(() => this.#release());
        },
      };
      if (this.acquireTimeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          waiter.grant = () => this.#release(); // already given up: pass the slot on when it comes
          this.#waiting--;
          this.stats.acquireTimeouts++;
          reject(new PoolTimeoutError(`no pool slot within ${this.acquireTimeoutMs} ms`));
        }, this.acquireTimeoutMs);
      }
      this.#queue.push(waiter);
      this.#waiting++;
    });
  }

  #release(): void {
    if (this.#queue.length === this.#head) {
      this.#busy--;
      return;
    }
    const next = this.#queue[this.#head++];
    // Drop the consumed prefix now and then so the array does not grow with every request served.
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    next.grant(); // the slot passes straight to the next waiter: #busy is unchanged
  }
}

/** Runs `queries` queries one after another, each holding a slot for `queryMs` (a timer). */
export async function runPageQueries(pool: QueryPool, opts: Pick<CmsOptions, "queries" | "queryMs">) {
  for (let i = 0; i < opts.queries; i++) {
    const release = await pool.acquire();
    try {
      await new Promise((r) => setTimeout(r, opts.queryMs));
    } finally {
      release();
    }
  }
}

/** As flat target stats (`cmsQueries`, `cmsQueued`, ...). */
export function cmsStats(pool: QueryPool): Record<string, number> {
  const s = pool.stats;
  return {
    cmsQueries: s.queries,
    cmsQueued: s.queued,
    cmsQueueWaitMs: Math.round(s.queueWaitMs),
    cmsAcquireTimeouts: s.acquireTimeouts,
  };
}
