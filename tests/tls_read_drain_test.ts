/**
 * Over TLS the epoll transport reads one record per `SSL_read` and must not stop reading while bytes are
 * left where no edge will announce them: in OpenSSL's buffer, or in the kernel's queue after a read that
 * filled OpenSSL's buffer. Bodies far larger than a record and pipelined responses arriving back to back
 * must all be read whole, with no request left to time out. Bounded runs (-n), loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { attackJson, EPOLL_TLS_BLOCKER, withTlsTarget } from "./tls_fixtures.ts";

const BIG_BYTES = 200_000;
const BIG = "x".repeat(BIG_BYTES);

Deno.test({
  name:
    "https [epoll]: bodies of many records and pipelined responses are read whole, none waits for a timeout",
  ignore: EPOLL_TLS_BLOCKER !== null,
  async fn() {
    const answer = (req: Request) => new Response(new URL(req.url).pathname === "/big" ? BIG : "ok");
    await withTlsTarget(async (port, f) => {
      const base = `https://localhost:${port}`;
      const cases: Array<[string, string[], number]> = [
        ["/big", [], 40],
        ["/big", ["-p", "4"], 40],
        ["/", ["-p", "16"], 800],
      ];
      for (const [path, extra, requests] of cases) {
        const r = await attackJson([`${base}${path}`, "--cacert", f.ca, ...extra], "epoll", requests, 2);
        assertEquals(r.code, 0, r.stderr);
        const what = `${path} ${extra.join(" ")}`;
        assertEquals(r.json.errors, {}, `${what}: ${JSON.stringify(r.json.errorMessages)}`);
        assertEquals(r.json.statusCodes, { "200": requests }, what);
        ok(
          r.json.bytesRead >= requests * (path === "/big" ? BIG_BYTES : 2),
          `${what}: ${r.json.bytesRead} bytes`,
        );
      }
    }, answer);
  },
});
