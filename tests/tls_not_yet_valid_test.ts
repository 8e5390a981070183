/**
 * A server certificate that is not valid yet (its notBefore tomorrow), against a real `Deno.serve` HTTPS
 * target on 127.0.0.1 with each verifying transport: the failure is counted under one stable message
 * that names the reason. rustls's own text carries the verification time in seconds, so counted as it
 * was, every second of a run made a new error message and errors by message grew without bound.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { withTempDir } from "./helpers.ts";
import { attackJson, TLS_TRANSPORTS } from "./tls_fixtures.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";

const NOT_YET_VALID =
  "tls expired: the server's certificate is expired or not yet valid (or pass --insecure)";

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`[${transport}] a certificate not valid yet is counted under one message without times`, async () => {
    const pair = await selfSignedPair(Date.now() + 86_400_000);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, cert: pair.certPem, key: pair.keyPem, onListen() {} },
      () => new Response("ok"),
    );
    try {
      await withTempDir(async (dir) => {
        const ca = join(dir, "ca.pem");
        await Deno.writeTextFile(ca, pair.caPem);
        const url = `https://localhost:${server.addr.port}/`;
        const r = await attackJson([url, "--cacert", ca], transport, 3, 1);
        assertEquals(r.json?.errorMessages, { tls: { [NOT_YET_VALID]: 3 } }, r.stderr);
      });
    } finally {
      await server.shutdown();
    }
  });
}
