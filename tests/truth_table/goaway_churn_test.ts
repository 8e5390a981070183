/**
 * @module
 * Truth table, HTTP/2 GOAWAY churn: nginx ends each connection after `keepalive_requests` (here 100, its
 * default is 1,000) with a GOAWAY, and the streams above its last id go again on a new connection. A
 * healthy server: every request is answered once, the success rate is 100%, the verdict is ok, and the
 * re-sends are counted beside the requests (`retried`), never as failures.
 */
import assert from "node:assert/strict";
import { requireProgram, withTempDir } from "../helpers.ts";
import { attackJson, makeTlsFixtures, TLS_TRANSPORTS } from "../tls_fixtures.ts";
import { startNginx } from "../../bench/nginx.ts";

for (const transport of TLS_TRANSPORTS) {
  Deno.test(`GOAWAY churn on nginx [${transport}]: re-sent streams count once, as answered, and as retried`, async () => {
    if (!requireProgram("nginx") || !requireProgram("openssl")) return;
    await withTempDir(async (dir) => {
      const f = await makeTlsFixtures(dir);
      const nginx = await startNginx("nginx", [], {
        directives:
          `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey}; keepalive_requests 100;`,
      }, true);
      try {
        const r = await attackJson(
          [nginx.url, "--h2", "--streams", "20", "--cacert", f.ca],
          transport,
          1000,
          2,
        );
        assert.equal(r.code, 0, r.stderr);
        const run = r.json;
        assert.deepEqual([run.requests, run.statusCodes, run.errors], [1000, { "200": 1000 }, {}]);
        assert.equal(run.successRate, 1);
        assert.ok(run.retried > 0, `streams re-sent after GOAWAY are counted: ${run.retried}`);
        assert.ok(
          run.connects >= 10,
          `nginx closed each connection after 100 requests: ${run.connects} connects`,
        );
        assert.equal(run.verdict.label, "ok");
      } finally {
        await nginx.stop();
      }
    });
  });
}
