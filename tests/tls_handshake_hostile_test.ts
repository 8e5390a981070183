/**
 * Servers that break the TLS handshake, on every TLS client (`deno`: Deno.startTls, `deno --insecure`:
 * node:tls, `epoll`: OpenSSL): a reset (RST) or a close (FIN) after the ClientHello and a plain HTTP
 * answer to it are each counted as a `tls` failure (the TCP connect had succeeded), with the same kind on
 * every client; a server that never answers is cut off at the timeout as a connect failure, with no
 * run lasting past its requests' timeouts. Raw `node:net` servers, bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import * as net from "node:net";
import { requireProgram, withTempDir } from "./helpers.ts";
import { attackJson, EPOLL_TLS_BLOCKER, makeTlsFixtures, TLS_CLIENTS } from "./tls_fixtures.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Clients at once: each runs `loadlab attack` processes that mostly wait on hostile servers' timeouts. */
const pool = testPool(4);

type Behaviour = "reset" | "close" | "plain" | "silent";

/** A TCP server that reads the ClientHello and then does `behaviour`. */
function hostileServer(behaviour: Behaviour): Promise<{ port: number; stop: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", () => {
      if (behaviour === "reset") socket.resetAndDestroy();
      else if (behaviour === "close") socket.end();
      else if (behaviour === "plain") {
        socket.end("HTTP/1.1 400 Bad Request\r\nContent-Length: 11\r\nConnection: close\r\n\r\nbad request");
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        stop: () => {
          for (const socket of sockets) socket.destroy();
          return new Promise((done) => server.close(() => done()));
        },
      }))
  );
}

for (const { transport, insecure } of TLS_CLIENTS) {
  pool.test(
    `https [${transport}${
      insecure ? " --insecure" : ""
    }]: a broken handshake is counted as tls, a silent one as connect at the timeout`,
    async () => {
      if (!requireProgram("openssl")) return;
      await withTempDir(async (dir) => {
        const f = await makeTlsFixtures(dir);
        const tlsArgs = insecure ? ["--insecure"] : ["--cacert", f.ca];
        for (const behaviour of ["reset", "close", "plain", "silent"] as const) {
          const server = await hostileServer(behaviour);
          try {
            const startMs = Date.now();
            const r = await attackJson([`https://127.0.0.1:${server.port}/`, ...tlsArgs], transport, 2, 1);
            const tookMs = Date.now() - startMs;
            const what = `${behaviour}: ${JSON.stringify(r.json?.errorMessages)}`;
            assertEquals(r.json.statusCodes, {}, what);
            assertEquals(r.json.errors, { [behaviour === "silent" ? "connect" : "tls"]: 2 }, what);
            // Two requests one after the other, each given up at 5 s at the latest (the machine is busy).
            ok(tookMs < 30_000, `${behaviour}: ${tookMs} ms`);
          } finally {
            await server.stop();
          }
        }
      });
    },
    { ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null },
  );
}
