/**
 * How loadlab's TLS clients end their connections: every connection a run closes sends a close_notify
 * first (RFC 8446 section 6.1: each party MUST send one before closing its write side), so a server sees
 * a clean end, not a truncation. Counted by a `Deno.listenTls` server, whose read ends with null after a
 * close_notify and fails with `UnexpectedEof` without one. On every TLS client: `deno` (Deno.startTls),
 * `deno` with --insecure (node:tls) and `epoll` (OpenSSL). Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import { attackJson, EPOLL_TLS_BLOCKER, makeTlsFixtures, TLS_TRANSPORTS } from "./tls_fixtures.ts";

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

const CLIENTS = [
  ...TLS_TRANSPORTS.map((transport) => ({ transport, insecure: false })),
  { transport: "deno", insecure: true }, // node:tls
] as const;

for (const { transport, insecure } of CLIENTS) {
  Deno.test({
    name: `https [${transport}${
      insecure ? " --insecure" : ""
    }]: every connection loadlab closes ends with a close_notify`,
    ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
    async fn() {
      if (!requireProgram("openssl")) return;
      await withTempDir(async (dir) => {
        const f = await makeTlsFixtures(dir);
        const listener = Deno.listenTls({
          hostname: "127.0.0.1",
          port: 0,
          cert: await Deno.readTextFile(f.serverCert),
          key: await Deno.readTextFile(f.serverKey),
        });
        const endings: Endings = { clean: 0, unclean: 0, other: [] };
        const served: Promise<void>[] = [];
        const accepting = (async () => {
          for await (const conn of listener) served.push(serve(conn, endings));
        })();
        try {
          const tlsArgs = insecure ? ["--insecure"] : ["--cacert", f.ca];
          const url = `https://127.0.0.1:${listener.addr.port}/`;
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
        } finally {
          listener.close();
          await accepting.catch(() => {});
          await Promise.all(served);
        }
      });
    },
  });
}
