/**
 * @module
 * Which HTTP version a run speaks, chosen once per worker before t0 like the transport: `http1`; `h2`
 * over TLS (ALPN offers only `h2`) or, on an http: URL, cleartext h2 with prior knowledge (`h2c`);
 * `auto` on https: offers `h2` and `http/1.1` and asks the server once with one connection before
 * the run (the probe sends no request), then every connection speaks what the server chose; `auto` on
 * http: is HTTP/1.1 (cleartext h2 cannot be negotiated without an upgrade round trip per connection).
 */
import type { ChosenTransport } from "./transport/choice.ts";

/** The protocols of the config (`protocol:`, `--protocol`). */
export type ProtocolRequest = "http1" | "h2" | "h2c" | "auto";
/** What a run spoke (results: `protocol`). */
export type ProtocolUsed = "http1" | "h2" | "h2c";

/** What to offer by ALPN (undefined: the transport's default, `http/1.1`) and what is settled already. */
export function alpnOf(url: URL, requested: ProtocolRequest): {
  alpn: readonly string[] | undefined;
  settled: ProtocolUsed | null;
} {
  const https = url.protocol === "https:";
  if (requested === "http1") return { alpn: undefined, settled: "http1" };
  if (requested === "h2c" || (requested === "h2" && !https)) return { alpn: undefined, settled: "h2c" };
  if (requested === "h2") return { alpn: ["h2"], settled: "h2" };
  return https ? { alpn: ["h2", "http/1.1"], settled: null } : { alpn: undefined, settled: "http1" };
}

/**
 * `auto` on https:: one connection (no request) to learn the server's ALPN choice; `h2` when it chose
 * h2, else `http1` (also when the probe failed: the run then counts the failures as usual).
 */
export async function probeProtocol(
  chosen: ChosenTransport,
  hostname: string,
  port: number,
  timeoutMs: number,
): Promise<ProtocolUsed> {
  try {
    const conn = await chosen.transport(hostname, port, AbortSignal.timeout(timeoutMs));
    try {
      conn.close();
    } catch { /* closed */ }
  } catch {
    return "http1";
  }
  return chosen.tlsInfo()?.alpn === "h2" ? "h2" : "http1";
}
