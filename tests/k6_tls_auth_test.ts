/**
 * @module
 * k6's `tlsAuth` under `loadlab run`: two nginx servers each requiring a client certificate of its own CA
 * (`ssl_verify_client on`), reached as two domains `options.hosts` maps; each gets the pair its domains name,
 * the first on the run's target (the epoll transport's OpenSSL where it runs), the second on an origin of
 * the script's own (Deno's sockets, node:tls).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { EPOLL_TLS_BLOCKER, makeTlsFixtures } from "./tls_fixtures.ts";
import { startNginx } from "../bench/nginx.ts";

Deno.test("k6's tlsAuth presents each domain's client certificate, as k6 does", async () => {
  if (!requireProgram("nginx") || !requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const [a, b] = await Promise.all(["a", "b"].map(async (name) => {
      await Deno.mkdir(`${dir}/${name}`);
      return await makeTlsFixtures(`${dir}/${name}`, `ca-${name}`);
    }));
    const servers = await Promise.all([a, b].map((f) =>
      startNginx("nginx", [], {
        directives: `ssl_certificate ${f.serverCert}; ssl_certificate_key ${f.serverKey}; ` +
          `ssl_client_certificate ${f.ca}; ssl_verify_client on;`,
      })
    ));
    try {
      const [portA, portB] = servers.map((s) => new URL(s.url).port);
      const script = `${dir}/mtls.js`;
      await Deno.writeTextFile(
        script,
        `import http from "k6/http";
import { check } from "k6";
export const options = {
  iterations: 2,
  hosts: { "a.test": "127.0.0.1:${portA}", "b.test": "127.0.0.1:${portB}" },
  insecureSkipTLSVerify: true,
  tlsAuth: [
    { domains: ["b.test"], cert: open("${b.clientCert}"), key: open("${b.clientKey}") },
    { domains: ["a.test"], cert: open("${a.clientCert}"), key: open("${a.clientKey}") },
  ],
  thresholds: { checks: ["rate==1"] },
};
export default function () {
  check(http.get("https://a.test/"), { "a answers": (r) => r.status === 200 });
  check(http.get("https://b.test/"), { "b answers": (r) => r.status === 200 });
}
`,
      );
      const r = await runLoadlab(["run", script, "-q", "--out-dir", `${dir}/out`]);
      assertEquals(r.code, 0, r.stderr);
      // The target's pair went through OpenSSL's files where the epoll transport runs (else Deno's sockets).
      const results = await Deno.readTextFile(`${dir}/out/results.json`);
      assertEquals(results.includes('"client": "openssl"'), EPOLL_TLS_BLOCKER === null);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
});
