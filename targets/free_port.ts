/**
 * @module
 * Free loopback ports for targets, Redis and tests. The OS picks the port (bind to 0) and we release it
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

/** Resolves true once `host:port` accepts a TCP connection, false after `timeoutMs`. */
export async function waitForPort(host: string, port: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
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
