/**
 * End to end over HTTP/2: `loadlab attack --h2 / --protocol` against Debian's nginx (`listen ... http2`:
 * h2c with prior knowledge on a plain listener, h2 by ALPN with TLS) and the built-in target over TLS
 * (`auto`: ALPN's choice), on both transports; bad HTTP/2 options are exit 2 naming the flag. Bounded
 * loads (-n), loopback only, no speed asserted.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { attackJson, makeTlsFixtures, TLS_TRANSPORTS, withH2Nginx } from "./tls_fixtures.ts";
import { startNginx } from "../bench/nginx.ts";
import { startTarget } from "../targets/start.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Three cases at once: each starts its own servers (nginx, the built-in target) and `loadlab` runs. */
const pool = testPool(3);

for (const transport of TLS_TRANSPORTS) {
  pool.test(`h2 [${transport}]: nginx over h2c and over TLS by ALPN answers exactly -n, streams counted`, async () => {
    await withH2Nginx(async (plain, tls, f) => {
      const h2c = await attackJson([plain.url, "--h2", "--streams", "8"], transport, 300, 3);
      assertEquals(h2c.code, 0, h2c.stderr);
      assertEquals([h2c.json.requests, h2c.json.statusCodes, h2c.json.errors], [300, { "200": 300 }, {}]);
      assertEquals([h2c.json.protocol, h2c.json.streams, h2c.json.connects], ["h2c", 8, 3]);
      ok(h2c.json.maxStreamsPerConnection >= 1 && h2c.json.maxStreamsPerConnection <= 8);
      const h2 = await attackJson([tls.url, "--h2", "--streams", "8", "--cacert", f.ca], transport, 300, 3);
      assertEquals(h2.code, 0, h2.stderr);
      assertEquals([h2.json.requests, h2.json.statusCodes, h2.json.errors], [300, { "200": 300 }, {}]);
      assertEquals([h2.json.protocol, h2.json.tls.alpn], ["h2", "h2"]);
      const auto = await attackJson([tls.url, "--protocol", "auto", "--cacert", f.ca], transport, 300, 3);
      assertEquals([auto.json.protocol, auto.json.requests], ["h2", 300]);
    });
  });

  pool.test(`h2 [${transport}]: the server's SETTINGS_MAX_CONCURRENT_STREAMS holds streams back, all answered`, async () => {
    if (!requireProgram("nginx") || !requireProgram("openssl")) return;
    await withTempDir(async (dir) => {
      const f = await makeTlsFixtures(dir);
      const tls = await startNginx("nginx", [], {
        directives: `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey}; ` +
          "http2_max_concurrent_streams 2;",
      }, true);
      try {
        const r = await attackJson([tls.url, "--h2", "--streams", "8", "--cacert", f.ca], transport, 300, 3);
        assertEquals(r.code, 0, r.stderr);
        assertEquals([r.json.requests, r.json.errors], [300, {}]);
        ok(r.json.maxStreamsPerConnection <= 2, `at most ${r.json.maxStreamsPerConnection} open at once`);
      } finally {
        await tls.stop();
      }
    });
  });

  pool.test(`h2 [${transport}]: auto keeps HTTP/1.1 where the server offers no h2, and --h2 says why it fails`, async () => {
    if (!requireProgram("nginx") || !requireProgram("openssl")) return;
    await withTempDir(async (dir) => {
      const f = await makeTlsFixtures(dir);
      const tls = await startNginx("nginx", [], {
        directives: `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey};`,
      });
      const plain = await startNginx("nginx", []);
      try {
        const auto = await attackJson([tls.url, "--protocol", "auto", "--cacert", f.ca], transport, 300, 3);
        assertEquals([auto.json.protocol, auto.json.tls.alpn, auto.json.requests], [
          "http1",
          "http/1.1",
          300,
        ]);
        // An HTTP/1.1-only listener answers the h2c preface in HTTP/1.1: counted, named, never a hang.
        const h2c = await attackJson([plain.url, "--h2"], transport, 300, 3);
        ok((h2c.json.errors["h2-protocol"] ?? 0) > 0, JSON.stringify(h2c.json.errors));
        ok(
          Object.keys(h2c.json.errorMessages["h2-protocol"]).some((m) => /answered in HTTP\/1\.1/.test(m)),
          JSON.stringify(h2c.json.errorMessages),
        );
      } finally {
        await tls.stop();
        await plain.stop();
      }
    });
  });

  pool.test(`h2 [${transport}]: the built-in target over TLS speaks h2 by ALPN (auto), all models' shape kept`, async () => {
    await withTempDir(async (dir) => {
      const target = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
      try {
        const ca = target.caFile!;
        const closed = await attackJson(
          [
            `${target.url}/json`,
            "--protocol",
            "auto",
            "--streams",
            "4",
            "--cacert",
            ca,
          ],
          transport,
          300,
          3,
        );
        assertEquals(closed.code, 0, closed.stderr);
        assertEquals([closed.json.protocol, closed.json.requests, closed.json.errors], ["h2", 300, {}]);
        const open = await runLoadlab([
          "attack",
          `${target.url}/json`,
          "--h2",
          "--streams",
          "4",
          "-R",
          "200",
          "-d",
          "1s",
          "--cacert",
          ca,
          "--transport",
          transport,
          "--json",
          "--no-live",
        ]);
        const r = JSON.parse(open.stdout.split("\n")[0]);
        assertEquals([r.protocol, r.model, r.errors], ["h2", "rate", {}]);
        ok(r.requests > 0, `${r.requests} answered`);
      } finally {
        await target.stop();
      }
    });
  });
}

pool.test("h2 options: bad values are exit 2 naming the flag, before any load", async () => {
  const cases: Array<[string[], RegExp]> = [
    [["--h2", "--streams", "0"], /--streams/],
    [["--protocol", "h4"], /--protocol/],
    [["--streams", "4"], /--streams: streams apply to HTTP\/2/],
    [["--h2", "-p", "4"], /-p: protocol h2 sends concurrent streams/],
    [["--h2", "--h2-window", "100"], /--h2-window/],
  ];
  for (const [args, expected] of cases) {
    const r = await loadlabInProcess(["attack", "http://127.0.0.1:9/", "-n", "5", ...args], {
      rejected: true,
    });
    assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
    ok(expected.test(r.stderr), r.stderr);
  }
  const h2c = await loadlabInProcess(
    ["attack", "https://127.0.0.1:9/", "-n", "5", "--protocol", "h2c"],
    { rejected: true },
  );
  assertEquals(h2c.code, 2, h2c.stderr);
  ok(/--protocol: h2c is cleartext/.test(h2c.stderr), h2c.stderr);
});
