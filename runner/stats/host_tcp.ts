/**
 * @module
 * The host's kernel TCP counters (accept queue overflows, SYN retransmits, timeouts, retransmitted
 * segments), read before and after a run so results can say when the kernel dropped or retried. They
 * count the whole host, which readers are told; none are recorded off Linux.
 */

/** Counter deltas over a run: this host, all processes (a type, so results' loose object takes it). */
export type HostTcpDelta = {
  listenOverflows: number;
  listenDrops: number;
  synRetrans: number;
  timeouts: number;
  retransSegs: number;
};

const NETSTAT_FIELDS = {
  listenOverflows: ["TcpExt", "ListenOverflows"],
  listenDrops: ["TcpExt", "ListenDrops"],
  synRetrans: ["TcpExt", "TCPSynRetrans"],
  timeouts: ["TcpExt", "TCPTimeouts"],
  retransSegs: ["Tcp", "RetransSegs"],
} as const satisfies Record<keyof HostTcpDelta, readonly [string, string]>;

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
