/**
 * @module
 * HTTP/2 through the balancer, per connection: a connection opening with the h2 preface is relayed as
 * bytes to one instance, so all its streams go there (per-stream balancing needs an h2 server and client).
 */
import { CLIENT_PREFACE } from "../../../http2/frames.ts";
import { writeAll } from "../../../system/write_all.ts";
import type { BufferedConn } from "./conn.ts";

/** Whether the connection opens with the HTTP/2 preface; false leaves what was read for HTTP/1.1. */
export async function opensWithH2Preface(client: BufferedConn): Promise<boolean> {
  for (;;) {
    const have = Math.min(client.end - client.start, CLIENT_PREFACE.length);
    for (let k = 0; k < have; k++) if (client.buf[client.start + k] !== CLIENT_PREFACE[k]) return false;
    if (have === CLIENT_PREFACE.length) return true;
    if (!(await client.fill())) return false;
  }
}

/** Copies `from` to `to` until `from` ends or either breaks; then closes `to`'s write side. */
async function pump(from: Deno.Conn, to: Deno.Conn, buf: Uint8Array): Promise<void> {
  try {
    for (let n = await from.read(buf); n !== null; n = await from.read(buf)) {
      await writeAll(to, buf.subarray(0, n));
    }
  } catch { /* a reset on either side ends this direction */ }
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
  try {
    await writeAll(up, client.buf.subarray(client.start, client.end));
    client.start = client.end;
    const done = (conn: Deno.Conn) => () => {
      try {
        conn.close();
      } catch { /* closed already */ }
    };
    // When one direction ends, close both, which ends the other pump.
    await Promise.race([
      pump(client.conn, up, new Uint8Array(64 * 1024)).then(done(up)),
      pump(up, client.conn, client.buf).then(done(client.conn)),
    ]);
  } catch {
    /* the instance went away while the first bytes were written */
  } finally {
    try {
      up.close();
    } catch { /* closed already */ }
  }
  return true;
}
