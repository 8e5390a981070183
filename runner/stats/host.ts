/**
 * @module
 * What the rest of the machine did during a run (other processes' CPU, PSI, kernel TCP); judges nothing.
 */
import { readCpuStallUs, readHostCpuSec, treeCpuSec } from "../../system/proc_stat.ts";
import type { RunResult } from "../../results/mod.ts";

/** One reading: the host's CPU, loadlab's tree's, the stall counter and the wall clock. */
type HostCpuReading = ReturnType<typeof readHostCpu>;

/** What a run records of the host's CPU: results' `hostCpu`. */
type HostCpuDelta = NonNullable<RunResult["hostCpu"]>;

export function readHostCpu() {
  const host = readHostCpuSec();
  const treeSec = treeCpuSec(Deno.pid);
  if (host === null || treeSec === null) return null;
  return { ...host, treeSec, stallUs: readCpuStallUs(), atMs: performance.now() };
}

/** What the rest of the host did between two readings; null when either is missing or no time passed. */
export function hostCpuDelta(before: HostCpuReading, after: HostCpuReading): HostCpuDelta | null {
  if (before === null || after === null || after.totalSec <= before.totalSec) return null;
  const wallSec = (after.atMs - before.atMs) / 1000;
  if (!(wallSec > 0)) return null;
  const other = (after.busySec - before.busySec) - (after.treeSec - before.treeSec);
  const round = (x: number) => Math.round(x * 100) / 100;
  const delta: HostCpuDelta = {
    otherCores: round(Math.min(Math.max(other / wallSec, 0), before.cores)),
    cores: before.cores,
  };
  if (before.stallUs !== null && after.stallUs !== null) {
    delta.stallPct = round(Math.min(100, (after.stallUs - before.stallUs) / 1e4 / wallSec));
  }
  return delta;
}

const NETSTAT_FIELDS = {
  listenOverflows: ["TcpExt", "ListenOverflows"],
  listenDrops: ["TcpExt", "ListenDrops"],
  synRetrans: ["TcpExt", "TCPSynRetrans"],
  timeouts: ["TcpExt", "TCPTimeouts"],
  retransSegs: ["Tcp", "RetransSegs"],
} as const satisfies Record<string, readonly [string, string]>;

/** Counter deltas over a run: this host, all processes (a type, so results' loose object takes it). */
type HostTcpDelta = Record<keyof typeof NETSTAT_FIELDS, number>;

/** What changed between two readings; null when either is missing or lacks the accept-queue counters. */
export function hostTcpDelta(
  before: Map<string, number> | null,
  after: Map<string, number> | null,
): HostTcpDelta | null {
  if (before === null || after === null) return null;
  const delta = {} as HostTcpDelta;
  for (const [key, [prefix, name]] of Object.entries(NETSTAT_FIELDS)) {
    const a = after.get(`${prefix}.${name}`);
    const b = before.get(`${prefix}.${name}`);
    if ((a === undefined || b === undefined) && key.startsWith("listen")) return null;
    delta[key as keyof HostTcpDelta] = a !== undefined && b !== undefined ? Math.max(0, a - b) : 0;
  }
  return delta;
}
