/**
 * @module
 * The kernel's TCP counters of this host (Linux `/proc/net/netstat` and `/proc/net/snmp`), read before
 * and after a run so results can say when the kernel itself dropped or retried connections: a
 * listening socket's accept queue overflowing (`ListenOverflows`, `ListenDrops`), SYNs sent again
 * (`TCPSynRetrans`), retransmission timeouts (`TCPTimeouts`) and segments sent again (`RetransSegs`).
 * They count every process of the host (its network namespace), not only this run's sockets, so a
 * reader must be told so; a delta of zero is still evidence that nothing was dropped. Elsewhere (not
 * Linux, no read permission) there are no counters and the run records none. The files are read by
 * system/proc_net.ts; this module picks the counters a run reports and takes their difference.
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
