/**
 * @module
 * Entry point of a built-in target's process (instance, balancer, proxy), pinnable apart from the
 * generator: one JSON argument, prints READY, exits on SIGTERM/SIGINT or stdin EOF.
 */
import { createTargetApp } from "./app/app.ts";
import { serveBalancer } from "./balancer/balancer.ts";
import { createProxy } from "./proxy/proxy.ts";
import { connectRedis, type RedisClient, seedRedis } from "./redis.ts";
import { type ChildSpec, READY_PREFIX } from "./child_spec.ts";
import { sampleThisProcess } from "./runtime_sampler.ts";
import { serveGrpcTarget } from "./app/grpc_endpoints.ts";
import { serveH3 } from "./h3_serve.ts";

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
    console.error(
      `loadlab target: no HTTP/3 on UDP port ${port}: ${err instanceof Error ? err.message : err}`,
    );
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

/** Serves the role described by `specJson` until SIGTERM, SIGINT or stdin EOF. */
export async function runTargetChild(specJson: string): Promise<void> {
  const spec: ChildSpec = JSON.parse(specJson);
  sampleThisProcess(); // event-loop delay and heap, when the parent set LOADLAB_RUNTIME_DIR
  // The balancer forwards raw HTTP/1.1 on its own sockets (balancer.ts says why), the others serve Requests.
  const { server, close } = spec.role === "balancer"
    ? {
      server: serveBalancer({
        hostname: spec.host,
        port: spec.port,
        upstreams: spec.upstreams,
        mode: spec.mode,
        tls: pemOf(spec.tls),
      }),
      close: () => Promise.resolve(),
    }
    : await serveHandler(spec);
  const host = spec.host === "0.0.0.0" ? "127.0.0.1" : spec.host.includes(":") ? `[${spec.host}]` : spec.host;
  const scheme = spec.tls ? "https" : "http";
  console.log(
    READY_PREFIX + JSON.stringify({ url: `${scheme}://${host}:${server.addr.port}`, pid: Deno.pid }),
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.race([server.shutdown(), new Promise((r) => setTimeout(r, 2000))]);
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

if (import.meta.main) {
  await runTargetChild(Deno.args[0]).catch((err) => {
    console.error(`loadlab target child failed: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  });
}
