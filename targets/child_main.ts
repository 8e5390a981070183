/**
 * @module
 * A built-in target's process (instance, balancer, proxy), READY once listening. With `tls:` an instance also
 * answers HTTP/3 (Deno's QUIC) on its HTTPS port's number over UDP, with no dynamic QPACK table.
 */
import { createTargetApp } from "./app/app.ts";
import { serveBalancer } from "./balancer/balancer.ts";
import { connectRedis, type RedisClient, seedRedis } from "./redis.ts";
import { type ChildSpec, READY_PREFIX } from "./spec.ts";
import { sampleThisProcess } from "./runtime_sampler.ts";
import { serveGrpcTarget } from "./app/grpc_endpoints.ts";
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
import { within } from "../system/sleep.ts";
import { urlHost } from "../system/ports.ts";

type Handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Response | Promise<Response>;

async function buildHandler(spec: ChildSpec): Promise<{ handler: Handler; close(): Promise<void> }> {
  let redis: RedisClient | null = null;
  if (spec.role === "app") {
    if (spec.redisUrl) {
      redis = await connectRedis(spec.redisUrl);
      await seedRedis(redis);
    }
    const target = createTargetApp({ ...spec, redis });
    const grpc = spec.grpcPort === undefined
      ? null
      : await serveGrpcTarget({ hostname: spec.host, port: spec.grpcPort, tls: pemOf(spec.tls) });
    // The gRPC server's close waits for its clients' sessions to end: not awaited, the process exits next.
    return { handler: target.fetch, close: () => (void grpc?.close(), quit(redis)) };
  }
  if (spec.role === "balancer") throw new TypeError("the balancer serves its own connections: serveBalancer");
  redis = await connectRedis(spec.redisUrl);
  // Loaded here: the proxy's Redis client costs an app's process 170 ms of CPU at its start.
  const { createProxy } = await import("./proxy/proxy.ts");
  const upstreamTls = {
    insecure: spec.upstreamTls?.insecure,
    caCerts: spec.upstreamTls?.caFile ? [Deno.readTextFileSync(spec.upstreamTls.caFile)] : undefined,
  };
  const proxy = createProxy({ ...spec, upstreamUrl: spec.upstream, upstreamTls, redis });
  const handler: Handler = (req, info) => {
    const forwarded = req.headers.get("x-forwarded-for");
    return proxy.fetch(req, forwarded ? forwarded.split(",")[0].trim() : info.remoteAddr.hostname);
  };
  return { handler, close: () => (proxy.close(), quit(redis)) };
}

async function serveHandler(spec: ChildSpec) {
  const { handler, close } = await buildHandler(spec);
  const server = Deno.serve({
    ...pemOf(spec.tls),
    hostname: spec.host,
    port: spec.port,
    reusePort: spec.reusePort,
    onListen: () => {},
    onError: (err) => Response.json({ error: String(err) }, { status: 500 }),
  }, handler);
  const h3 = spec.tls && !spec.reusePort ? serveH3Beside(handler, spec, server.addr.port) : null;
  return { server, close: () => (h3?.close(), close()) };
}

/** HTTP/3 on the UDP port of the same number; a taken port is said on stderr, HTTPS goes on. */
function serveH3Beside(handler: Handler, spec: ChildSpec, port: number): { close(): void } | null {
  try {
    return serveH3(handler, { hostname: spec.host, port, ...pemOf(spec.tls)! });
  } catch (err) {
    console.error(`loadlab target: no HTTP/3 on UDP port ${port}: ${(err as Error)?.message ?? err}`);
    return null;
  }
}

/** The PEM text of `tls`'s files, for Deno.serve / Deno.listenTls; {} for plain HTTP. */
function pemOf(tls: ChildSpec["tls"]): { cert: string; key: string } | undefined {
  if (!tls) return undefined;
  return { cert: Deno.readTextFileSync(tls.certFile), key: Deno.readTextFileSync(tls.keyFile) };
}

async function quit(redis: RedisClient | null): Promise<void> {
  await redis?.disconnect().catch(() => {});
}

/** Serves the role `specJson` names until SIGTERM, SIGINT or stdin EOF (also `loadlab __target <json>`). */
export async function runTargetChild([specJson]: string[]): Promise<void> {
  const spec: ChildSpec = JSON.parse(specJson);
  sampleThisProcess(); // event-loop delay and heap, when the parent set LOADLAB_RUNTIME_DIR
  // The balancer forwards raw HTTP/1.1 on its own sockets (balancer.ts says why), the others serve Requests.
  const { server, close } = spec.role === "balancer"
    ? { server: serveBalancer({ ...spec, hostname: spec.host, tls: pemOf(spec.tls) }), close: async () => {} }
    : await serveHandler(spec);
  const url = `${spec.tls ? "https" : "http"}://${urlHost(spec.host)}:${server.addr.port}`;
  console.log(READY_PREFIX + JSON.stringify({ url, pid: Deno.pid }));
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await within(server.shutdown(), 2000);
    await close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGTERM", stop);
  Deno.addSignalListener("SIGINT", stop);
  if (spec.watchStdin) watchParent(stop);
  await server.finished;
}

/** Our stdin is a pipe from the parent: EOF means the parent is gone. */
async function watchParent(onGone: () => void): Promise<void> {
  const buf = new Uint8Array(64);
  try {
    while ((await Deno.stdin.read(buf)) !== null) { /* the parent never writes; keep waiting */ }
  } catch { /* a read error means the pipe is gone too */ }
  onGone();
}

/** Response fields HTTP/3 forbids (RFC 9114 4.2). */
const DROPPED = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade"]);
const IGNORE = () => {};

/** Serves `handler` over HTTP/3 on UDP `hostname:port` until `close()`. Throws when the port is taken. */
function serveH3(handler: Handler, opts: { hostname: string; port: number; cert: string; key: string }) {
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
  // Kept referenced: a collected send stream is finished; a finished control stream closes (RFC 9114 6.2.1).
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

/** Reads one request to its FIN, then writes the handler's answer; a malformed one throws (stream reset). */
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

if (import.meta.main) {
  await runTargetChild(Deno.args).catch((err) => {
    console.error(`loadlab target child failed: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  });
}
