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
      // The pairs in k6's config file, under a script that gives none: the same run, as k6's.
      const pairs = await Promise.all([[b, "b.test"], [a, "a.test"]].map(async ([f, domain]) => ({
        domains: [domain],
        cert: await Deno.readTextFile((f as typeof a).clientCert),
        key: await Deno.readTextFile((f as typeof a).clientKey),
      })));
      await Deno.writeTextFile(`${dir}/k6.json`, JSON.stringify({ tlsAuth: pairs }));
      await Deno.writeTextFile(
        script,
        (await Deno.readTextFile(script)).replace(/ {2}tlsAuth: \[[\s\S]*?\n {2}\],\n/, ""),
      );
      assertEquals((await Deno.readTextFile(script)).includes("tlsAuth"), false);
      const config = ["run", script, "-q", "--config", `${dir}/k6.json`, "--out-dir", `${dir}/out2`];
      const fromFile = await runLoadlab(config);
      assertEquals(fromFile.code, 0, fromFile.stderr);
      // k6 reads K6_TLSAUTH as empty pairs, every VU failing: refused before the load, saying so.
      const env = await runLoadlab(config, { K6_TLSAUTH: JSON.stringify(pairs) });
      assertEquals(env.code, 104, env.stderr);
      assertEquals(
        /K6_TLSAUTH: k6 reads no pair from it .*give options\.tlsAuth/.test(env.stderr),
        true,
        env.stderr,
      );
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  });
});
