/**
 * @module
 * Free loopback ports and waiting for a port to accept, for targets, Redis, bench/ and tests. The OS picks the port (bind to 0) and we release it
 * at once; the tiny race with another process grabbing it in between is accepted because the consumer
 * fails loudly with "address in use" rather than silently measuring the wrong server.
 */

/** A TCP port on `host` that was free a moment ago. */
export function freePort(host = "127.0.0.1"): number {
  const listener = Deno.listen({ hostname: host, port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Resolves true once `host:port` accepts a TCP connection, false after `timeoutMs` or as soon as
 * `gaveUp()` says the process that should listen there is gone.
 */
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
