/**
 * @module
 * HTTP/3 for a built-in target with `tls:`: a fetch handler answers over Deno's QUIC (`Deno.QuicEndpoint`,
 * unstable: `--unstable-net`) on the UDP port of the HTTPS port's number, so one origin speaks HTTP/1.1, h2
 * and h3. Per connection: our control stream with SETTINGS (no dynamic QPACK table, no blocked streams);
 * the client's unidirectional streams are drained (offered no table, its encoder stream carries nothing to
 * decode). Per request stream: its frames read with http3/'s reader from pooled buffers, its HEADERS decoded
 * into a Request, the handler's Response written whole as HEADERS and DATA, then FIN. A request breaking
 * the framing or the field rules has its stream stopped and reset, unanswered.
 */
import {
  CONTROL_STREAM_PREFACE,
  encodeMessage,
  FRAME_HEADERS,
  H3FrameReader,
  READ_DATA,
  READ_FRAME,
} from "../http3/frames.ts";
import { QpackDecoder } from "../http3/qpack_decoder.ts";
import { encodeFieldSection } from "../http3/qpack_encoder.ts";
import { byobChunks } from "../system/byob_chunks.ts";

type Handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

/** Response fields HTTP/3 forbids (RFC 9114 4.2). */
const DROPPED = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);
const IGNORE = () => {};

/** Serves `handler` over HTTP/3 on UDP `hostname:port` until `close()`. Throws when the port is taken. */
export function serveH3(
  handler: Handler,
  opts: { hostname: string; port: number; cert: string; key: string },
): { close(): void } {
  const endpoint = new Deno.QuicEndpoint({ hostname: opts.hostname, port: opts.port });
  const listener = endpoint.listen({ alpnProtocols: ["h3"], cert: opts.cert, key: opts.key });
  (async () => {
    for await (const incoming of listener) {
      Promise.resolve(incoming.accept()).then((conn) => serveConnection(conn, handler)).catch(IGNORE);
    }
  })().catch(IGNORE);
  return { close: () => endpoint.close() };
}

async function serveConnection(conn: Deno.QuicConn, handler: Handler): Promise<void> {
  // Referenced while the connection lives: a send stream collected is finished, and a finished control
  // stream closes the connection (RFC 9114 6.2.1).
  const control = (await conn.createUnidirectionalStream()).getWriter();
  await control.write(CONTROL_STREAM_PREFACE);
  (async () => {
    for await (const uni of conn.incomingUnidirectionalStreams) {
      uni.pipeTo(new WritableStream()).catch(IGNORE);
    }
  })().catch(IGNORE);
  const decoder = new QpackDecoder();
  const info = { remoteAddr: conn.remoteAddr, completed: conn.closed.then(IGNORE, IGNORE) };
  for await (const stream of conn.incomingBidirectionalStreams) {
    answer(stream, decoder, handler, info).catch(() => {
      stream.readable.cancel().catch(IGNORE);
      stream.writable.abort().catch(IGNORE);
    });
  }
  control.releaseLock();
}

/** Reads one request to its FIN, then writes the handler's answer; throws on a malformed request. */
async function answer(
  stream: Deno.QuicBidirectionalStream,
  decoder: QpackDecoder,
  handler: Handler,
  info: Deno.ServeHandlerInfo<Deno.NetAddr>,
): Promise<void> {
  const frames = new H3FrameReader(false);
  const pseudo: Record<string, string> = {};
  const headers = new Headers();
  const body: Uint8Array<ArrayBuffer>[] = [];
  const onField = (name: string, value: string) => {
    if (name.startsWith(":")) pseudo[name] = value;
    else headers.append(name, value);
  };
  for await (const chunk of byobChunks(stream.readable)) {
    for (let at = 0; at < chunk.length;) {
      at = frames.read(chunk, at, chunk.length);
      if (at < 0) throw new Error(`request frames: H3 error ${-at}`);
      if (frames.event === READ_DATA) body.push(chunk.slice(frames.dataOff, frames.dataOff + frames.dataLen));
      else if (
        frames.event === READ_FRAME && frames.type === FRAME_HEADERS && pseudo[":method"] === undefined
      ) {
        const off = frames.payloadOff;
        // Nonzero is a :status in a request, or a negative QPACK_* code.
        const r = decoder.decodeSection(0, frames.payload, off, off + frames.payloadLen, onField);
        if (r !== 0) throw new Error(`request fields: ${r}`);
      }
    }
  }
  const method = pseudo[":method"];
  if (method === undefined || !frames.atFrameBoundary) throw new Error("no request HEADERS");
  const url = `${pseudo[":scheme"] ?? "https"}://${pseudo[":authority"] ?? "localhost"}${
    pseudo[":path"] ?? "/"
  }`;
  const hasBody = body.length > 0 && method !== "GET" && method !== "HEAD";
  const req = new Request(url, {
    method,
    headers,
    body: hasBody ? await new Blob(body).arrayBuffer() : null,
  });
  let res: Response;
  try {
    res = await handler(req, info);
  } catch (err) {
    res = Response.json({ error: String(err) }, { status: 500 });
  }
  const bytes = method === "HEAD" ? null : new Uint8Array(await res.arrayBuffer());
  const fields: [string, string][] = [[":status", String(res.status)]];
  for (const [name, value] of res.headers) if (!DROPPED.has(name)) fields.push([name, value]);
  if (bytes !== null && !res.headers.has("content-length")) {
    fields.push(["content-length", String(bytes.length)]);
  }
  const writer = stream.writable.getWriter();
  await writer.write(encodeMessage(encodeFieldSection(fields), bytes));
  await writer.close();
}
