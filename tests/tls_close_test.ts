/**
 * How loadlab's TLS clients end their connections: every connection a run closes sends a close_notify
 * first (RFC 8446 section 6.1: each party MUST send one before closing its write side), so a server sees
 * a clean end, not a truncation. Counted by a `Deno.listenTls` server, whose read ends with null after a
 * close_notify and fails with `UnexpectedEof` without one. On every TLS client: `deno` (Deno.startTls),
 * `deno` with --insecure (node:tls) and `epoll` (OpenSSL). Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import * as nodeTls from "node:tls";
import {
  attackJson,
  EPOLL_TLS_BLOCKER,
  makeTlsFixtures,
  TLS_CLIENTS,
  TLS_TRANSPORTS,
  type TlsFixtures,
  withTlsListener,
} from "./tls_fixtures.ts";

const OK = new TextEncoder().encode("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");

/** How the server's connections ended: with the client's close_notify, or without one. */
interface Endings {
  clean: number;
  unclean: number;
  other: string[];
}

/** Answers every request (a head ending in an empty line) with a kept-alive 200, until the client ends. */
async function serve(conn: Deno.Conn, endings: Endings): Promise<void> {
  const buf = new Uint8Array(16 * 1024);
  let pending = "";
  try {
    while (true) {
      const n = await conn.read(buf);
      if (n === null) {
        endings.clean++;
        break;
      }
      pending += new TextDecoder().decode(buf.subarray(0, n));
      for (let end = pending.indexOf("\r\n\r\n"); end >= 0; end = pending.indexOf("\r\n\r\n")) {
        pending = pending.slice(end + 4);
        await conn.write(OK);
      }
    }
  } catch (err) {
    if (err instanceof Deno.errors.UnexpectedEof) endings.unclean++;
    else endings.other.push(String(err));
  }
  try {
    conn.close();
  } catch { /* closed */ }
}

for (const { transport, insecure } of TLS_CLIENTS) {
  Deno.test({
    name: `https [${transport}${
      insecure ? " --insecure" : ""
    }]: every connection loadlab closes ends with a close_notify`,
    ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
    async fn() {
      const endings: Endings = { clean: 0, unclean: 0, other: [] };
      await withTlsListener((conn) => serve(conn, endings), async (port, f, served) => {
        const tlsArgs = insecure ? ["--insecure"] : ["--cacert", f.ca];
        const url = `https://127.0.0.1:${port}/`;
        const r = await attackJson([url, ...tlsArgs], transport, 20, 2);
        assertEquals(r.code, 0, r.stderr);
        assertEquals(r.json.statusCodes, { "200": 20 });
        // The generator has exited: every connection it opened has ended at the server.
        const deadline = Date.now() + 5000;
        while (
          endings.clean + endings.unclean + endings.other.length < served.length && Date.now() < deadline
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        ok(served.length >= 2, `${served.length} connections`);
        assertEquals(
          { unclean: endings.unclean, other: endings.other },
          { unclean: 0, other: [] },
          `of ${served.length} connections ${endings.clean} ended with a close_notify`,
        );
      });
    },
  });
}

/**
 * A `node:tls` server answering each request with a body delimited by the connection's end (no
 * Content-Length), then ending with a close_notify (`end`) or without one (`destroy`: a TCP close).
 */
function closeDelimitedServer(f: TlsFixtures, withCloseNotify: boolean): Promise<nodeTls.Server> {
  const server = nodeTls.createServer({
    cert: Deno.readTextFileSync(f.serverCert),
    key: Deno.readTextFileSync(f.serverKey),
  }, (socket) => {
    socket.on("error", () => {});
    socket.once("data", () => {
      socket.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello", () => {
        setTimeout(() => withCloseNotify ? socket.end() : socket.destroy(), 20);
      });
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

for (const transport of TLS_TRANSPORTS) {
  Deno.test({
    name:
      `https [${transport}]: a body ended by the connection's close is complete only with a close_notify (RFC 9112 9.8)`,
    ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
    async fn() {
      if (!requireProgram("openssl")) return;
      await withTempDir(async (dir) => {
        const f = await makeTlsFixtures(dir);
        for (const withCloseNotify of [true, false]) {
          const server = await closeDelimitedServer(f, withCloseNotify);
          try {
            const port = (server.address() as { port: number }).port;
            const r = await attackJson([`https://127.0.0.1:${port}/`, "--cacert", f.ca], transport, 4, 1);
            const what = withCloseNotify ? "with close_notify" : "TCP close, no close_notify";
            if (withCloseNotify) {
              assertEquals(
                r.json.statusCodes,
                { "200": 4 },
                `${what}: ${JSON.stringify(r.json.errorMessages)}`,
              );
              continue;
            }
            // Truncation cannot be told from the end: none of them is a response.
            assertEquals(r.json.statusCodes, {}, what);
            const counted = Object.values(r.json.errors as Record<string, number>).reduce((a, b) => a + b, 0);
            assertEquals(counted, 4, `${what}: ${JSON.stringify(r.json.errorMessages)}`);
          } finally {
            await new Promise((resolve) => server.close(resolve));
          }
        }
      });
    },
  });
}
