/**
 * Handshake messages after the handshake, sent by `openssl s_server` before each response (its `K` and
 * `r` commands on stdin): a TLS 1.3 KeyUpdate that asks loadlab to update its own keys too (OpenSSL's
 * `SSL_read` must write while it reads), and a TLS 1.2 renegotiation (HelloRequest, then a whole new
 * handshake inside the connection). Every request completes, none waits for the timeout. Deno.startTls
 * (rustls) refuses renegotiation by design: there it is counted as tls, never a hang. Bounded runs (-n),
 * one connection, loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, withTempDir } from "./helpers.ts";
import { attackJson, EPOLL_TLS_BLOCKER, makeTlsFixtures, TLS_TRANSPORTS } from "./tls_fixtures.ts";

const RESPONSE = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `s_server` answering each request (seen in what it prints) with `command` then the response, each
 * its own write to its stdin (it takes a line of one letter as a command); resolves with its port.
 */
async function commandingServer(certFile: string, keyFile: string, version: string, command: string) {
  const child = new Deno.Command("openssl", {
    // -msg: it prints each message it sends (">>>"), so the test sees that they went out.
    args: ["s_server", "-accept", "127.0.0.1:0", "-cert", certFile, "-key", keyFile, version, "-msg"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const stdin = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let port = 0;
  let onPort: (port: number) => void = () => {};
  const portKnown = new Promise<number>((resolve) => onPort = resolve);
  let sent = 0;
  const driving = (async () => {
    let text = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      sent += chunk.match(/>>> [^\n]*(KeyUpdate|HelloRequest)/g)?.length ?? 0;
      const accept = /ACCEPT 127\.0\.0\.1:(\d+)/.exec(text);
      if (port === 0 && accept) onPort(port = Number(accept[1]));
      for (let at = text.indexOf("GET / HTTP/1.1"); at >= 0; at = text.indexOf("GET / HTTP/1.1")) {
        text = text.slice(at + 5);
        await stdin.write(encoder.encode(`${command}\n`));
        await pause(100);
        await stdin.write(encoder.encode(RESPONSE));
        await pause(100);
      }
    }
  })();
  return {
    port: await portKnown,
    /** KeyUpdate or HelloRequest messages the server sent. */
    sent: () => sent,
    async stop() {
      child.kill();
      await child.status;
      await driving.catch(() => {});
      await stdin.close().catch(() => {});
    },
  };
}

const CASES = [
  { what: "a KeyUpdate asking for one back", version: "-tls1_3", command: "K" },
  { what: "a renegotiation", version: "-tls1_2", command: "r" },
] as const;

for (const transport of TLS_TRANSPORTS) {
  for (const { what, version, command } of CASES) {
    Deno.test({
      name: `https [${transport}]: ${what} before each response: every request completes`,
      ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
      async fn() {
        if (!requireProgram("openssl")) return;
        await withTempDir(async (dir) => {
          const f = await makeTlsFixtures(dir);
          const server = await commandingServer(f.serverCert, f.serverKey, version, command);
          try {
            const url = `https://127.0.0.1:${server.port}/`;
            const r = await attackJson([url, "--cacert", f.ca], transport, 3, 1);
            const why = JSON.stringify(r.json.errorMessages);
            if (transport === "deno" && command === "r") {
              // rustls answers a HelloRequest with no_renegotiation; the server ends the connection.
              assertEquals(Object.keys(r.json.errors), ["tls"], why);
              return;
            }
            assertEquals(r.json.statusCodes, { "200": 3 }, why);
            assertEquals(r.json.errors, {}, why);
            // The server's own log (flushed late: the last may not be in yet) shows what it sent.
            ok(server.sent() >= 1, `${server.sent()} messages the server sent`);
          } finally {
            await server.stop();
          }
        });
      },
    });
  }
}
