/**
 * @module
 * HTTP/2 through the balancer, per connection: a connection opening with the h2 preface is relayed as
 * bytes to one instance, so all its streams go there (per-stream balancing needs an h2 server and client).
 */
import { CLIENT_PREFACE } from "../../../http2/frames.ts";
import { BufferedConn } from "./conn.ts";
import { tunnel } from "./relay.ts";

/** Whether the connection opens with the HTTP/2 preface; false leaves what was read for HTTP/1.1. */
export async function opensWithH2Preface(client: BufferedConn): Promise<boolean> {
  for (;;) {
    const have = Math.min(client.end - client.start, CLIENT_PREFACE.length);
    for (let k = 0; k < have; k++) if (client.buf[client.start + k] !== CLIENT_PREFACE[k]) return false;
    if (have === CLIENT_PREFACE.length) return true;
    if (!(await client.fill())) return false;
  }
}

/** Relays the client's connection to `hostname:port` until either side closes; false when unreachable. */
export async function relayH2(client: BufferedConn, hostname: string, port: number): Promise<boolean> {
  let up: Deno.TcpConn;
  try {
    up = await Deno.connect({ hostname, port });
  } catch {
    return false;
  }
  up.setNoDelay(true);
  await tunnel(client, new BufferedConn(up));
  return true;
}
