/**
 * End to end over TLS: `loadlab attack https://...` with each TLS option against a real `Deno.serve`
 * TLS target and Debian's nginx requiring a client certificate (`ssl_verify_client on`), on both
 * transports (`deno`: Deno.startTls or node:tls; `epoll`: OpenSSL by FFI). Bounded loads (-n), loopback
 * only, no speed asserted.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram } from "./helpers.ts";
import { attackJson, TLS_TRANSPORTS, withTlsTarget } from "./tls_fixtures.ts";
import { startNginx } from "../bench/nginx.ts";
import { tlsFailureMessage, verifyFailureReason } from "../runner/http/tls/material.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` child: three at once. */
const pool = testPool(3);

/** The client each transport records: epoll always OpenSSL; deno rustls, or node:tls where rustls cannot. */
const clientOf = (transport: string, rustls: boolean) =>
  transport === "epoll" ? "openssl" : rustls ? "deno" : "node:tls";

Deno.test("verification failures are named by reason from either client's message", () => {
  assertEquals(verifyFailureReason("invalid peer certificate: Expired"), "expired");
  assertEquals(verifyFailureReason("certificate has expired"), "expired");
  assertEquals(verifyFailureReason("invalid peer certificate: UnknownIssuer"), "unknown-ca");
  assertEquals(verifyFailureReason("self-signed certificate in certificate chain"), "unknown-ca");
  assertEquals(verifyFailureReason('certificate not valid for name "example.com"'), "hostname");
  assertEquals(verifyFailureReason("connection reset"), null);
  ok(tlsFailureMessage("UnknownIssuer").startsWith("tls unknown-ca:"));
});

for (const transport of TLS_TRANSPORTS) {
  pool.test(`https [${transport}]: the CA file verifies, the handshake is timed apart, what it negotiated is recorded`, async () => {
    await withTlsTarget(async (port, f) => {
      const r = await attackJson([`https://localhost:${port}/`, "--cacert", f.ca], transport, 40, 2);
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.json.statusCodes, { "200": 40 });
      ok(r.json.tlsMs && r.json.tlsMs.max > 0, JSON.stringify(r.json.tlsMs));
      ok(r.json.connectTimeMs !== null);
      assertEquals(r.json.tls.client, clientOf(transport, true));
      assertEquals(r.json.transport, transport);
      assertEquals(r.json.tls.insecure, false);
      assertEquals(r.json.config.tls.caFile, f.ca);
    });
  });

  pool.test(`https [${transport}]: verification failures are counted by reason, and --insecure skips them with a warning`, async () => {
    await withTlsTarget(async (port, f) => {
      const unknown = await attackJson([`https://localhost:${port}/`], transport, 40, 2);
      const unknownMessages = Object.keys(unknown.json.errorMessages.tls);
      assertEquals(unknownMessages, [tlsFailureMessage("UnknownIssuer")]);
      const wrongName = await attackJson(
        [
          `https://127.0.0.1:${port}/`,
          "--cacert",
          f.ca,
          "--sni",
          "example.com",
        ],
        transport,
        40,
        2,
      );
      // The certificate's own names beside the one asked for, on every transport.
      assertEquals(Object.keys(wrongName.json.errorMessages.tls), [
        "tls hostname: the server's certificate names localhost, 127.0.0.1, not example.com " +
        "(use --sni NAME or --insecure)",
      ]);
      const insecure = await attackJson(
        [`https://127.0.0.1:${port}/`, "--insecure", "--sni", "example.com"],
        transport,
        40,
        2,
      );
      assertEquals(insecure.code, 0, insecure.stderr);
      assertEquals(insecure.json.statusCodes, { "200": 40 });
      assertEquals(insecure.json.tls.insecure, true);
      ok(/warning: --insecure/.test(insecure.stderr), insecure.stderr);
    });
  });

  pool.test(`https [${transport}]: --connect-to dials another address while the URL's host is sent and verified`, async () => {
    await withTlsTarget(async (port, f) => {
      const r = await attackJson(
        [
          "https://localhost:1/",
          "--cacert",
          f.ca,
          "--connect-to",
          `127.0.0.1:${port}`,
        ],
        transport,
        40,
        2,
      );
      assertEquals(r.code, 0, r.stderr);
      assertEquals(r.json.statusCodes, { "200": 40 });
    });
  });
}

pool.test("https: bad TLS files are exit 2 before any load, naming the flag", async () => {
  await withTlsTarget(async (port, f) => {
    const url = `https://localhost:${port}/`;
    const cases: Array<[string[], RegExp]> = [
      [["--cacert", `${f.dir}/missing.pem`], /^loadlab attack: --cacert: cannot read .*no such file/],
      [["--cacert", `${f.dir}/server.ext`], /^loadlab attack: --cacert: .* holds no PEM block/],
      [
        ["--cert", f.clientCert, "--key", f.serverKey],
        /^loadlab attack: --key: .* does not match the certificate/,
      ],
      [["--cert", f.clientCert], /^loadlab attack: --key: a client certificate needs both/],
      [["--connect-to", "nowhere"], /^loadlab attack: --connect-to: connectTo must be HOST:PORT/],
    ];
    for (const [args, expected] of cases) {
      const r = await loadlabInProcess(["attack", url, "-n", "5", ...args], { rejected: true });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      ok(expected.test(r.stderr.trim()), r.stderr);
    }
  });
});

for (const transport of TLS_TRANSPORTS) {
  pool.test(`https [${transport}]: nginx requiring a client certificate answers 400 without one and 200 with it`, async () => {
    if (!requireProgram("nginx")) return;
    await withTlsTarget(async (_port, f) => {
      const nginx = await startNginx("nginx", [], {
        directives: `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey}; ` +
          `ssl_client_certificate ${f.ca}; ssl_verify_client on; ssl_protocols TLSv1.3;`,
      });
      try {
        const url = nginx.url;
        const without = await attackJson([url, "--cacert", f.ca], transport, 40, 2);
        assertEquals(without.json.statusCodes, { "400": 40 });
        const withCert = await attackJson(
          [
            url,
            "--cacert",
            f.ca,
            "--cert",
            f.clientCert,
            "--key",
            f.clientKey,
          ],
          transport,
          40,
          2,
        );
        assertEquals(withCert.code, 0, withCert.stderr);
        assertEquals(withCert.json.statusCodes, { "200": 40 });
        assertEquals(withCert.json.tls.client, clientOf(transport, false));
        assertEquals(withCert.json.tls.version, "TLSv1.3");
      } finally {
        await nginx.stop();
      }
    });
  });
}
