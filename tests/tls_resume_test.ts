/**
 * End to end: `--tls-resume on|off` (and `tls: { resume }` in experiment files). The epoll transport's
 * OpenSSL client resumes the last session it received on a worker's new connections, counted in results
 * (`tls.handshakes`, `tls.resumed`), against Debian's nginx (session tickets on, its default) and the
 * built-in target serving `tls: self-signed`, with `Connection: close` so every request is a new
 * connection; `off` resumes none. The `deno` transport cannot resume and says so when asked. Bounded
 * loads (-n), loopback only, no speed asserted.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { startNginx } from "../bench/nginx.ts";
import { startTarget } from "../targets/start.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { RESUME_UNAVAILABLE } from "../runner/http/tls/deno_tls.ts";
import { tlsOptionsSchema } from "../runner/http/tls/options.ts";
import { EPOLL_TLS_BLOCKER } from "./tls_fixtures.ts";
import { testPool } from "./fixtures/test_pool.ts";

const REQUESTS = 20;

/** `attack` with a new connection (and handshake) per request; its results as JSON. */
async function closeRun(url: string, caFile: string, transport: string, resume: string[]) {
  const r = await runLoadlab([
    "attack",
    url,
    "--cacert",
    caFile,
    "--transport",
    transport,
    ...resume,
    "-H",
    "Connection: close",
    "-n",
    `${REQUESTS}`,
    "-c",
    "2",
    "--timeout",
    "5s",
    "--json",
    "--no-live",
  ]);
  assertEquals(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout.split("\n")[0]);
  assertEquals(json.statusCodes, { "200": REQUESTS });
  return json;
}

/** On resumes some of the handshakes (the first is always full), off none; every handshake counted. */
async function assertResumes(url: string, caFile: string): Promise<void> {
  const on = await closeRun(url, caFile, "epoll", []); // on is the default
  assertEquals([on.tls.client, on.tls.resume, on.config.tls.resume], ["openssl", true, true]);
  ok(on.tls.handshakes >= REQUESTS, JSON.stringify(on.tls));
  ok(on.tls.resumed > 0 && on.tls.resumed < on.tls.handshakes, JSON.stringify(on.tls));
  const off = await closeRun(url, caFile, "epoll", ["--tls-resume", "off"]);
  assertEquals([off.tls.resume, off.tls.resumed, off.config.tls.resume], [false, 0, false]);
  ok(off.tls.handshakes >= REQUESTS, JSON.stringify(off.tls));
}

/** Cases at once: each waits on its target's and `loadlab` processes. */
const pool = testPool(4);

pool.test(
  "tls-resume [epoll]: nginx's tickets resume later connections with on, none with off",
  async () => {
    if (!requireProgram("nginx")) return;
    await withTempDir(async (dir) => {
      const pair = await selfSignedPair();
      await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
      await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
      await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem);
      const nginx = await startNginx("nginx", [], {
        directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ` +
          "ssl_protocols TLSv1.3;",
      });
      try {
        await assertResumes(nginx.url, `${dir}/ca.pem`);
      } finally {
        await nginx.stop();
      }
    });
  },
  { ignore: EPOLL_TLS_BLOCKER !== null },
);

pool.test(
  "tls-resume [epoll]: the built-in target's self-signed TLS resumes with on, not with off",
  async () => {
    await withTempDir(async (dir) => {
      const target = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
      try {
        await assertResumes(`${target.url}/json`, target.caFile!);
      } finally {
        await target.stop();
      }
    });
  },
  { ignore: EPOLL_TLS_BLOCKER !== null },
);

pool.test("tls-resume [deno]: on is recorded as not available there; off is taken as it is", async () => {
  await withTempDir(async (dir) => {
    const target = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
    try {
      const url = `${target.url}/json`;
      const on = await closeRun(url, target.caFile!, "deno", ["--tls-resume", "on"]);
      assertEquals([on.tls.resume, on.tls.resumed, on.tls.resumeNote], [false, null, RESUME_UNAVAILABLE]);
      const off = await closeRun(url, target.caFile!, "deno", ["--tls-resume", "off"]);
      assertEquals([off.tls.resume, off.tls.resumeNote], [false, undefined]);
    } finally {
      await target.stop();
    }
  });
});

pool.test("tls-resume: a bad value is exit 2 before any load; files take on/off or a boolean", async () => {
  const r = await runLoadlab(["attack", "https://127.0.0.1:1/", "-n", "1", "--tls-resume", "maybe"]);
  assertEquals(r.code, 2, r.stderr);
  assertEquals(
    r.stderr.trim(),
    'loadlab attack: --tls-resume "maybe": must be one of on, off, e.g. --tls-resume off',
  );
  assertEquals(tlsOptionsSchema.parse({}).resume, true);
  assertEquals(tlsOptionsSchema.parse({ resume: "off" }).resume, false);
  assertEquals(tlsOptionsSchema.parse({ resume: false }).resume, false);
  assertEquals(tlsOptionsSchema.parse({ resume: "on" }).resume, true);
  throws(() => tlsOptionsSchema.parse({ resume: "maybe" }));
});
