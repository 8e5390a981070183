/**
 * @module
 * Relays one HTTP/1.1 message between sockets in constant memory, the tunnel after `101`, the balancer's own
 * answers; an HTTP/2 connection goes as bytes to one instance, all its streams with it.
 */
import { writeAll } from "../../../system/write_all.ts";
import { bodyFramer, BufferedConn } from "./conn.ts";
import { CLIENT_PREFACE } from "../../../http2/frames.ts";
import { Framing } from "../../../http1/body_framing.ts";
import { type MessageFramer, NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";

/** The stream ended inside a message, or its framing broke: the connection cannot be used again. */
export class FramingError extends Error {}

/** Writes the message with head src.buf[src.start, headEnd) and its body to `dst`, consuming them. */
export async function relayMessage(src: BufferedConn, headEnd: number, dst: Deno.Conn, head: MessageFramer) {
  if (head.framing === Framing.None) return await writeThrough(src, dst, headEnd);
  if (head.framing === Framing.Length) return await relayLength(src, headEnd, dst, head.contentLength);
  if (head.framing === Framing.Chunked) return await relayChunked(src, headEnd, dst);
  await writeThrough(src, dst, src.end);
  while (await src.fill()) await writeThrough(src, dst, src.end);
}

async function writeThrough(src: BufferedConn, dst: Deno.Conn, end: number): Promise<void> {
  if (end > src.start) {
    src.relayedBytes += end - src.start;
    await writeAll(dst, src.buf.subarray(src.start, end));
  }
  src.start = end;
}

async function relayLength(
  src: BufferedConn,
  from: number,
  dst: Deno.Conn,
  lengthBytes: number,
): Promise<void> {
  let remaining = lengthBytes;
  let pos = from;
  for (;;) {
    const take = Math.min(remaining, src.end - pos);
    remaining -= take;
    await writeThrough(src, dst, pos + take);
    if (remaining === 0) return;
    if (!(await src.fill())) throw new FramingError(`stream ended ${remaining} bytes before the body's end`);
    pos = src.start;
  }
}

async function relayChunked(src: BufferedConn, from: number, dst: Deno.Conn): Promise<void> {
  const framer = src.chunked ??= bodyFramer();
  framer.startChunkedBody();
  let pos = from;
  for (;;) {
    const end = framer.feed(src.buf, pos, src.end);
    if (end === PARSE_ERROR) throw new FramingError(`malformed chunked body: ${framer.error}`);
    await writeThrough(src, dst, end === NEED_MORE ? src.end : end);
    if (end !== NEED_MORE) return;
    if (!(await src.fill())) throw new FramingError("stream ended inside a chunked body");
    pos = src.start;
  }
}

/** After `101 Switching Protocols`: copies bytes both ways until either side ends, then closes both. */
export async function tunnel(a: BufferedConn, b: BufferedConn): Promise<void> {
  const pump = async (src: BufferedConn, dst: BufferedConn) => {
    try {
      do await writeThrough(src, dst.conn, src.end); while (await src.fill());
    } catch { /* either side gone: the tunnel ends */ }
    a.close();
    b.close();
  };
  await Promise.all([pump(a, b), pump(b, a)]);
}

const encoder = new TextEncoder();

/** A complete small answer of the balancer itself, e.g. 502 with the reason as JSON. */
export function plainAnswer(status: number, reason: string, body: unknown, close: boolean): Uint8Array {
  const json = encoder.encode(JSON.stringify(body));
  const head =
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${json.length}\r\n` +
    (close ? "connection: close\r\n" : "") + "\r\n";
  const out = new Uint8Array(head.length + json.length);
  encoder.encodeInto(head, out);
  out.set(json, head.length);
  return out;
}

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
