/**
 * A GOAWAY mid-run from a node:http2 server, over HTTP/2 and gRPC, on every transport: the streams the
 * server processes complete on the old connection, one it refused and every later request go at once on a
 * new connection, and nothing is counted `timeout`. The server holds its first connection's first stream
 * until a request reaches a later connection, so a request that waits for the old connection to drain
 * waits out its deadline.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { grpcRequestSpec } from "../grpc/call.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const REQUESTS = 12;
/** Far above a loopback round trip on busy cores: only a stream left waiting reaches it. */
const TIMEOUT_MS = 4_000;

interface GoawayServer {
  origin: string;
  seen: { connections: number; heldAnswered: boolean };
  close(): Promise<void>;
}

/**
 * The first connection's second stream brings the GOAWAY: its last stream id refuses that stream
 * (`refuse`), or takes it in and answers it.
 */
function startGoawayServer(grpc: boolean, refuse: boolean): Promise<GoawayServer> {
  const server = http2.createServer();
  const seen = { connections: 0, heldAnswered: false };
  const streamsOf = new Map<http2.Http2Session, number>();
  let first: http2.Http2Session | null = null;
  let held: http2.ServerHttp2Stream | null = null;
  const answer = (stream: http2.ServerHttp2Stream): boolean => {
    if (stream.destroyed || stream.closed) return false;
    if (!grpc) {
      stream.respond({ ":status": 200 });
      stream.end("ok");
      return true;
    }
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
    stream.end(Uint8Array.of(0, 0, 0, 0, 3, 0x0a, 0x01, 0x78));
    return true;
  };
  server.on("session", (session) => {
    seen.connections++;
    first ??= session;
    streamsOf.set(session, 0);
    session.on("error", () => {});
  });
  server.on("stream", (stream) => {
    // A stream above the GOAWAY's last id is closed by the server's side unprocessed.
    stream.on("error", () => {});
    const session = stream.session!;
    const n = streamsOf.get(session)!;
    streamsOf.set(session, n + 1);
    stream.resume();
    stream.on("end", () => {
      if (session === first && n === 0) held = stream;
      else if (session === first && n === 1) {
        session.goaway(http2.constants.NGHTTP2_NO_ERROR, refuse ? stream.id! - 2 : stream.id!);
        if (!refuse) answer(stream);
      } else {
        if (held !== null && answer(held)) seen.heldAnswered = true;
        held = null;
        answer(stream);
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () =>
          new Promise<void>((done) => {
            for (const session of streamsOf.keys()) session.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  for (const [grpc, refuse] of [[false, true], [true, true], [false, false], [true, false]]) {
    Deno.test({
      name: `h2 client: a GOAWAY mid-run drains the old connection, ${refuse ? "refused" : "later"} ${
        grpc ? "calls" : "requests"
      } go on a new one at once [${transport}]`,
      ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
        (transport === "io_uring" && URING_BLOCKER !== null),
      async fn() {
        const server = await startGoawayServer(grpc, refuse);
        try {
          const r = await runAttack(parseAttackConfig({
            url: `${server.origin}/`,
            model: "count",
            requests: REQUESTS,
            connections: 1,
            streams: 2,
            protocol: "h2c",
            timeoutMs: TIMEOUT_MS,
            gracefulStopMs: 300,
            generatorWarmup: false,
            transport,
            ...(grpc
              ? {
                grpc: {},
                requestMix: [
                  grpcRequestSpec({ method: "t.S/M", message: Uint8Array.of(0x0a, 0x01, 0x78) }, TIMEOUT_MS),
                ],
              }
              : {}),
          }));
          assertEquals([r.requests, r.errors], [REQUESTS, {}]);
          if (refuse) ok((r.retried ?? 0) >= 1, `retried ${r.retried}`);
          ok(server.seen.heldAnswered, "the processed stream was answered on the old connection");
          ok(server.seen.connections >= 2, `${server.seen.connections} connections`);
        } finally {
          await server.close();
        }
      },
    });
  }
}
