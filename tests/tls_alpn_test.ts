/**
 * ALPN with `--protocol h2`: HTTP/2 over TLS is spoken only on a connection whose server selected `h2`
 * (RFC 9113 section 3.2). A server that ignores ALPN (selects nothing) and speaks HTTP/1.1 is counted
 * at once as a TLS failure naming ALPN, on every TLS client, not left to time out or misparse; a server
 * that selects `h2` is spoken to. Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { attackJson, EPOLL_TLS_BLOCKER, TLS_CLIENTS, withTlsListener } from "./tls_fixtures.ts";

/**
 * A TLS server with no ALPN configured that answers whatever comes as an HTTP/1.1 server would the h2
 * preface.
 */
async function serveHttp1(conn: Deno.Conn): Promise<void> {
  try {
    if (await conn.read(new Uint8Array(4096)) !== null) {
      await conn.write(
        new TextEncoder().encode(
          "HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        ),
      );
    }
  } catch { /* the client went away */ }
  try {
    conn.close();
  } catch { /* closed */ }
}

for (const { transport, insecure } of TLS_CLIENTS) {
  Deno.test({
    name: `https [${transport}${
      insecure ? " --insecure" : ""
    }]: --protocol h2 against a server that selects no ALPN protocol is a tls error naming ALPN`,
    ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
    async fn() {
      await withTlsListener(serveHttp1, async (port, f) => {
        const tlsArgs = insecure ? ["--insecure"] : ["--cacert", f.ca];
        const url = `https://127.0.0.1:${port}/`;
        const r = await attackJson([url, ...tlsArgs, "--protocol", "h2"], transport, 4, 1);
        assertEquals(r.json.statusCodes, {});
        assertEquals(Object.keys(r.json.errors), ["tls"], JSON.stringify(r.json.errorMessages));
        const messages = Object.keys(r.json.errorMessages.tls);
        ok(messages.every((m) => /ALPN/.test(m) && /h2/.test(m)), messages.join("; "));
      });
    },
  });
}
