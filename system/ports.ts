/**
 * @module
 * Free loopback ports, picked outside the kernel's ephemeral range so no client socket takes one between
 * the check and the server's listen, and waiting for a port to accept.
 */

/** Clear of the well-known and most registered service ports. */
const LOWEST_PORT = 10_000;
const TRIES = 64;
/** Linux's default ephemeral range, assumed where the kernel does not say. */
const DEFAULT_EPHEMERAL: readonly [number, number] = [32_768, 60_999];

let pickRange: readonly [number, number] | null | undefined;

/** The wider gap below or above the ephemeral range (at least 1,000 ports), or null. */
export function rangeOutside(ephemeral: readonly [number, number]): readonly [number, number] | null {
  const below: [number, number] = [LOWEST_PORT, ephemeral[0] - 1];
  const above: [number, number] = [Math.max(LOWEST_PORT, ephemeral[1] + 1), 65_535];
  const best = below[1] - below[0] >= above[1] - above[0] ? below : above;
  return best[1] - best[0] >= 1_000 ? best : null;
}

function ephemeralRange(): readonly [number, number] {
  try {
    const [low, high] = Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range").trim().split(/\s+/)
      .map(Number);
    return Number.isInteger(low) && Number.isInteger(high) && low <= high ? [low, high] : DEFAULT_EPHEMERAL;
  } catch {
    return DEFAULT_EPHEMERAL; // not Linux, or /proc not mounted
  }
}

/** A TCP port on `host` that was free a moment ago. */
export function freePort(host = "127.0.0.1"): number {
  if (pickRange === undefined) pickRange = rangeOutside(ephemeralRange());
  const range = pickRange;
  for (let i = 0; range !== null && i < TRIES; i++) {
    const port = range[0] + Math.floor(Math.random() * (range[1] - range[0] + 1));
    try {
      Deno.listen({ hostname: host, port }).close();
      return port;
    } catch {
      // In use (or not ours to bind): try another.
    }
  }
  const listener = Deno.listen({ hostname: host, port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** True once `host:port` accepts, false after `timeoutMs` or once `gaveUp()` says its process is gone. */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  gaveUp: () => boolean = () => false,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !gaveUp()) {
    try {
      const conn = await Deno.connect({ hostname: host, port });
      conn.close();
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return false;
}
