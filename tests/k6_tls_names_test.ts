/**
 * k6's `res.tls_version` and `res.tls_cipher_suite` on loadlab's engine: a k6 script run by `loadlab run`
 * against a local TLS server, its tlsVersion capping the handshake at TLS 1.2 with one ECDHE suite; the
 * checks read what the response's connection negotiated, in k6's spelling.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { EPOLL_TLS_BLOCKER, withTlsTarget } from "./tls_fixtures.ts";
import { runK6Fixture } from "./k6_run.ts";
import { tlsNamesOf } from "../runner/script/k6/tls_info.ts";

Deno.test({
  name: "res.tls_version and res.tls_cipher_suite say what the connection negotiated, as k6 spells them",
  ignore: EPOLL_TLS_BLOCKER !== null,
  fn: () =>
    withTlsTarget(async (port) => {
      const { code, text, results, dir } = await runK6Fixture("tls_names.js", `https://127.0.0.1:${port}`);
      assertEquals(code, 0, text);
      const run = results.runs[0];
      const checks = run.flows[0].steps.flatMap((s: { checks?: unknown[] }) => s.checks ?? []);
      assertEquals(checks.map((c: { name: string; passed: number }) => [c.name, c.passed]), [
        ["is TLSv1.2", 2],
        ["suite TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", 2],
      ]);
      Deno.removeSync(dir, { recursive: true });
    }),
});

Deno.test("k6's TLS names: OpenSSL's version and suite names, plain HTTP, a client that cannot tell", () => {
  const names = (origin: string, version: string | null, cipher: string | null) =>
    tlsNamesOf(origin, { version, cipher });
  assertEquals(names("https://a/", "TLSv1.3", "TLS_AES_128_GCM_SHA256"), {
    version: "tls1.3",
    cipher: "TLS_AES_128_GCM_SHA256",
  });
  assertEquals(names("https://a/", "TLSv1.2", "AES128-GCM-SHA256"), {
    version: "tls1.2",
    cipher: "TLS_RSA_WITH_AES_128_GCM_SHA256",
  });
  assertEquals(tlsNamesOf("http://a/", undefined), { version: "", cipher: "" });
  assertEquals(tlsNamesOf("https://a/", undefined), { version: undefined, cipher: undefined });
});
