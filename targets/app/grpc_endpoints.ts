/**
 * @module
 * The built-in target's gRPC service (target.proto) on node:http2, since Deno.serve cannot send trailers,
 * with plain HTTP/2 `POST /echo` on the same listener for comparisons.
 */
import { Buffer } from "node:buffer";
import http2 from "node:http2";
import { frameMessage, MessageReader, READ_OK, READ_TOO_BIG } from "../../grpc/framing.ts";
import {
  GRPC_INTERNAL,
  GRPC_INVALID_ARGUMENT,
  GRPC_OK,
  GRPC_RESOURCE_EXHAUSTED,
  GRPC_UNIMPLEMENTED,
} from "../../grpc/status.ts";
import { encodeGrpcMessage } from "../../grpc/trailers.ts";
import { writeVarint } from "../../grpc/protobuf_wire.ts";
import { fib } from "./endpoints.ts";

/** The messages to send (encoded; `gapMs` apart for a paced stream), or a status other than OK. */
type Answer = { messages: Uint8Array[]; gapMs?: number } | { code: number; message: string };

/** The most `n` a Cpu call may ask (fib's cost doubles per step) and the most Stream replies. */
const MAX_FIB = 40;
const MAX_STREAM = 100_000;

/** Varint fields 1 to 3 of a `Work` message (n, size, ms); others are skipped. */
function readWork(bytes: Uint8Array): { n: number; size: number; ms: number } {
  const work = { n: 0, size: 0, ms: 0 };
  let p = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; p < bytes.length; shift += 7) {
      const b = bytes[p++];
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
    }
    return value;
  };
  while (p < bytes.length) {
    const tag = bytes[p++];
    const wire = tag & 7;
    if (wire === 0) {
      const value = varint();
      if (tag >> 3 === 1) work.n = value | 0;
      else if (tag >> 3 === 2) work.size = value | 0;
      else if (tag >> 3 === 3) work.ms = value | 0;
    } else if (wire === 2) p += varint();
    else break;
  }
  return work;
}

/** A `Result` message: its varint field 1 (`value`). */
function varintMessage(value: number): Uint8Array {
  const v = Math.max(0, Math.floor(value));
  const out = Uint8Array.of(0x08, ...new Uint8Array(10));
  return out.slice(0, writeVarint(out, 1, v >>> 0, Math.floor(v / 2 ** 32) >>> 0));
}

/** A `Payload` message of `size` bytes (field 1, `data`). */
function payloadMessage(size: number): Uint8Array {
  const head = Uint8Array.of(0x0a, ...new Uint8Array(10));
  const at = writeVarint(head, 1, size >>> 0, 0);
  const bytes = new Uint8Array(at + size).fill(0x78, at);
  bytes.set(head.subarray(0, at));
  return bytes;
}

async function answerOf(method: string, request: Uint8Array): Promise<Answer> {
  switch (method) {
    case "/loadlab.target.Target/Echo":
      return { messages: [request] };
    case "/loadlab.target.Target/Sleep": {
      const { n } = readWork(request);
      await new Promise((r) => setTimeout(r, Math.max(0, n)));
      return { messages: [varintMessage(n)] };
    }
    case "/loadlab.target.Target/Cpu": {
      const { n } = readWork(request);
      if (n < 0 || n > MAX_FIB) return { code: GRPC_INVALID_ARGUMENT, message: `n is 0..${MAX_FIB}` };
      return { messages: [varintMessage(fib(n))] };
    }
    case "/loadlab.target.Target/Stream": {
      const { n, size, ms } = readWork(request);
      if (n > MAX_STREAM) return { code: GRPC_INVALID_ARGUMENT, message: `n is at most ${MAX_STREAM}` };
      const messages = Array.from({ length: Math.max(0, n) }, () => payloadMessage(Math.max(0, size)));
      return { messages, gapMs: Math.max(0, ms) };
    }
    default:
      return { code: GRPC_UNIMPLEMENTED, message: `unknown method ${method}` };
  }
}

type Stream = http2.ServerHttp2Stream;

/** One call: its one request message read within `maxBytes`, then its answer, trailers last. */
function serveCall(stream: Stream, headers: http2.IncomingHttpHeaders, maxBytes: number): void {
  const reader = new MessageReader(maxBytes);
  let request: Uint8Array | null = null;
  reader.onMessage = (payload) => (request ??= payload);
  let failed: Answer | null = null;
  stream.on("data", (chunk: Uint8Array) => {
    if (failed !== null) return;
    const read = reader.feed(chunk, 0, chunk.length);
    if (read === READ_TOO_BIG) failed = { code: GRPC_RESOURCE_EXHAUSTED, message: "request over the cap" };
    else if (read !== READ_OK) failed = { code: GRPC_INTERNAL, message: "a malformed message" };
  });
  stream.on("error", () => {});
  stream.on("end", async () => {
    const answer = failed ??
      (request === null
        ? { code: GRPC_INTERNAL, message: "no request message" }
        : await answerOf(String(headers[":path"]), request));
    if (stream.closed || stream.destroyed) return;
    if ("code" in answer) {
      stream.respond({
        ":status": 200,
        "content-type": "application/grpc",
        "grpc-status": String(answer.code),
        "grpc-message": encodeGrpcMessage(answer.message),
      }, { endStream: true });
      return;
    }
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(GRPC_OK) }));
    if (!answer.gapMs) {
      for (const message of answer.messages) stream.write(frameMessage(message));
      stream.end();
    } else void pace(stream, answer.messages, answer.gapMs);
  });
}

/** `POST /echo` answers its body back, as the HTTP target's does; anything else is 404. */
function serveHttp(stream: Stream, headers: http2.IncomingHttpHeaders, maxBytes: number): void {
  const echo = headers[":method"] === "POST" && String(headers[":path"]).split("?")[0] === "/echo";
  const chunks: Uint8Array[] = [];
  let size = 0;
  stream.on("data", (chunk: Uint8Array) => {
    size += chunk.length;
    if (echo && size <= maxBytes) chunks.push(chunk);
  });
  stream.on("error", () => {});
  stream.on("end", () => {
    if (stream.closed || stream.destroyed) return;
    if (!echo) return void stream.respond({ ":status": 404 }, { endStream: true });
    if (size > maxBytes) return void stream.respond({ ":status": 413 }, { endStream: true });
    const type = String(headers["content-type"] ?? "application/octet-stream");
    stream.respond({ ":status": 200, "content-type": type });
    stream.end(Buffer.concat(chunks));
  });
}

/** A paced stream: each message `gapMs` after the one before (the first at once), then its end. */
async function pace(stream: Stream, messages: Uint8Array[], gapMs: number): Promise<void> {
  for (let k = 0; k < messages.length; k++) {
    if (k > 0) await new Promise((r) => setTimeout(r, gapMs));
    if (stream.closed || stream.destroyed) return;
    stream.write(frameMessage(messages[k]));
  }
  stream.end();
}

/** Serves on `hostname:port` (0: a free port), h2c or, with PEM text, TLS. */
export function serveGrpcTarget(options: {
  hostname: string;
  port: number;
  tls?: { cert: string; key: string };
  maxMessageBytes?: number;
}): Promise<{ readonly port: number; close(): Promise<void> }> {
  const maxBytes = options.maxMessageBytes ?? 4 * 1024 * 1024;
  const server = options.tls
    ? http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key, allowHTTP1: false })
    : http2.createServer();
  server.on("stream", (stream, headers) => {
    const grpc = String(headers["content-type"] ?? "").startsWith("application/grpc");
    (grpc ? serveCall : serveHttp)(stream, headers, maxBytes);
  });
  server.on("sessionError", () => {});
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => {
      const address = server.address();
      resolve({
        port: typeof address === "object" && address !== null ? address.port : options.port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
