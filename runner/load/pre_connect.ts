/**
 * @module
 * Connections opened before t0 so open models start warm: `--pre-connect`, throughput's fixed connections or
 * Little's law (W: the fastest of a few connects); closed, per-arrival runs open none; a failure stops it.
 */
import type { Phase } from "../config_fields.ts";
import type { PoolSize, WorkerShare } from "./models/model.ts";
import { CONNECTS_IN_FLIGHT_PER_WORKER } from "../http/transport/connect_gate.ts";
import type { LoadConnection } from "../http/load_connection.ts";

/** Connections per worker opened before t0 at least, whatever the estimate. */
export const PRE_CONNECT_FLOOR = 4;
/** Little's law times this: a connect round trip understates a response's time. */
const HEADROOM = 2;

interface PreConnected {
  connections: LoadConnection[];
  /** The W of Little's law in ms (fastest first connect); null when not estimated. */
  estimateMs: number | null;
}

/** One worker's open-pacing pool: its share of `preConnect`, else Little's law at `ratePerSec`, capped. */
export function openPoolSize(
  c: { maxConnections: number; preConnect?: number },
  ratePerSec: number,
  worker: WorkerShare,
): PoolSize {
  const max = Math.max(1, worker.share(c.maxConnections));
  if (c.preConnect !== undefined) return { count: Math.min(max, worker.share(c.preConnect)) };
  return { ratePerSec: ratePerSec / worker.count, max };
}

/** The peak rate of the first phase that sends anything (a leading pause sends nothing). */
export function firstRatePerSec(phases: readonly Phase[]): number {
  for (const p of phases) {
    const peak = Math.max(p.ratePerSec, p.rampToPerSec ?? 0);
    if (peak > 0) return peak;
  }
  return 0;
}

/** Connections for Little's law: 2 x rate x W, between the floor and `max`. */
export function littlesLawPool(ratePerSec: number, estimateMs: number, max: number): number {
  const pool = Math.ceil(HEADROOM * ratePerSec * estimateMs / 1000);
  return Math.min(max, Math.max(PRE_CONNECT_FLOOR, pool));
}

/** Opens this worker's pool; `newConnection` registers each with the worker (watchdog, shutdown). */
export async function preConnect(size: PoolSize, newConnection: () => LoadConnection): Promise<PreConnected> {
  if (size === null) return { connections: [], estimateMs: null };
  const first = "count" in size ? size.count : Math.min(size.max, PRE_CONNECT_FLOOR);
  const probe = await openMany(first, newConnection, "count" in size ? CONNECTS_IN_FLIGHT_PER_WORKER : 1);
  if (!probe.ok || "count" in size) return { connections: probe.open, estimateMs: null };
  const estimateMs = Math.min(...probe.connectMs);
  const pool = littlesLawPool(size.ratePerSec, estimateMs, size.max);
  const rest = await openMany(pool - first, newConnection, CONNECTS_IN_FLIGHT_PER_WORKER);
  return { connections: [...probe.open, ...rest.open], estimateMs };
}

async function openMany(n: number, newConnection: () => LoadConnection, atOnce: number) {
  const open: LoadConnection[] = [];
  const connectMs: number[] = [];
  let ok = true, started = 0;
  const opener = async () => {
    while (ok && started < n) {
      started++;
      const conn = newConnection();
      const startMs = performance.now();
      if (await conn.open()) {
        open.push(conn);
        connectMs.push(performance.now() - startMs);
      } else ok = false;
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, atOnce) }, opener));
  return { open, connectMs, ok };
}
