/**
 * @module
 * An HTTP/3 server on Deno's QUIC (`Deno.QuicEndpoint`, unstable: `--unstable-net`) and http3/, for
 * bench/h3_probe.ts `--server deno`: what Deno's QUIC costs per stream on the serving side, and a server
 * faster than aioquic's. Every request, read to its end, is answered 200 with --body-bytes octets (the
 * HEADERS and DATA frames encoded once); with --goaway-after N a connection's Nth answer is followed by a
 * GOAWAY, so clients reconnect (resumption's tests). Prints "listening <port>" when ready.
 *
 *   deno run -A --unstable-net bench/h3_deno_server.ts --cert C --key K [--port 0] [--body-bytes 13]
 *                                                      [--log-peers] [--goaway-after N]
 */
import { parseArgs } from "node:util";
import {
  CONTROL_STREAM_PREFACE,
  encodeMessage,
  FRAME_GOAWAY,
  FRAME_HEADERS,
  H3FrameReader,
  READ_FRAME,
} from "../http3/frames.ts";
import { QpackDecoder } from "../http3/qpack_decoder.ts";
import { encodeFieldSection } from "../http3/qpack_encoder.ts";
import { byobChunks } from "../system/byob_chunks.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    cert: { type: "string" },
    key: { type: "string" },
    port: { type: "string", default: "0" },
    "body-bytes": { type: "string", default: "13" },
    "log-peers": { type: "boolean", default: false },
    "goaway-after": { type: "string", default: "0" },
  },
});
const bodyBytes = Number(values["body-bytes"]);
const goawayAfter = Number(values["goaway-after"]);

/** The answer's HEADERS and DATA frames, the same octets for every request. */
const answer = encodeMessage(
  encodeFieldSection([[":status", "200"], ["content-length", String(bodyBytes)]]),
  new Uint8Array(bodyBytes).fill(120),
);

/** Reads one request to its end (its HEADERS decoded), then writes the answer and finishes the stream. */
async function answerStream(stream: Deno.QuicBidirectionalStream, decoder: QpackDecoder) {
  const reader = new H3FrameReader(false);
  const id = Number(stream.readable.id);
  for await (const chunk of byobChunks(stream.readable)) {
    for (let at = 0; at < chunk.length;) {
      at = reader.read(chunk, at, chunk.length);
      if (at < 0) throw new Error(`stream ${id}: error ${-at}`);
      if (reader.event === READ_FRAME && reader.type === FRAME_HEADERS) {
        decoder.decodeSection(id, reader.payload, reader.payloadOff, reader.payloadOff + reader.payloadLen);
      }
    }
  }
  const writer = stream.writable.getWriter();
  await writer.write(answer);
  await writer.close();
}

async function serve(conn: Deno.QuicConn) {
  if (values["log-peers"]) console.log("peer", conn.remoteAddr.port);
  const controlWriter = (await conn.createUnidirectionalStream()).getWriter();
  await controlWriter.write(CONTROL_STREAM_PREFACE);
  // The peer's control and QPACK streams: drained (no dynamic table is offered, so nothing to decode).
  (async () => {
    for await (const uni of conn.incomingUnidirectionalStreams) {
      uni.pipeTo(new WritableStream()).catch(() => {});
    }
  })().catch(() => {});
  const decoder = new QpackDecoder();
  let answered = 0;
  for await (const stream of conn.incomingBidirectionalStreams) {
    answerStream(stream, decoder).then(() => {
      // GOAWAY's stream ID (a 2-octet varint): the first request stream not answered.
      if (++answered !== goawayAfter) return;
      const next = 4 * goawayAfter;
      controlWriter.write(Uint8Array.of(FRAME_GOAWAY, 2, 0x40 | (next >> 8), next & 0xff)).catch(() => {});
    }).catch(() => {});
  }
  controlWriter.releaseLock();
}

const endpoint = new Deno.QuicEndpoint({ hostname: "127.0.0.1", port: Number(values.port) });
const listener = endpoint.listen({
  alpnProtocols: ["h3"],
  cert: await Deno.readTextFile(values.cert!),
  key: await Deno.readTextFile(values.key!),
});
console.log("listening", endpoint.addr.port);
for await (const incoming of listener) Promise.resolve(incoming.accept()).then(serve).catch(() => {});
