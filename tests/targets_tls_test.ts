/**
 * End to end: the built-in target, its balancer and the caching proxy serving HTTPS with `tls:
 * self-signed` (a throwaway CA and certificate made at start) and with certificate files of one's own;
 * clients verify them with the CA file the target writes, and an experiment compares http: with https:.
 */
import { deepStrictEqual as assertEquals, match as assertMatch, ok } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { requireProgram, runLoadlab, withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

async function getJson(url: string, caFile: string): Promise<unknown> {
  const client = Deno.createHttpClient({ caCerts: [await Deno.readTextFile(caFile)] });
  try {
    return await (await fetch(url, { client })).json();
  } finally {
    client.close();
  }
}

/** Cases at once: each waits on its targets' and `loadlab` processes. */
const pool = testPool(4);

pool.test("tls: self-signed serves https, writes its CA file into the log folder, and stats still answer", async () => {
  await withTempDir(async (dir) => {
    const target = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
    try {
      assertMatch(target.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assertEquals(target.caFile, `${dir}/tls-ca.pem`);
      assertEquals(await getJson(`${target.url}/json`, target.caFile!), { message: "Hello, World!" });
      // Without the CA the certificate is refused: it is a real verification, not a plain socket.
      await fetch(`${target.url}/json`).then(() => ok(false, "verified without the CA"), () => {});
      ok("cmsQueries" in await target.stats());
      assertEquals((await Deno.stat(`${dir}/tls-key.pem`)).mode! & 0o077, 0);
    } finally {
      await target.stop();
    }
  });
});

pool.test("tls: the balancer ends TLS in front of plain instances; a given cert/key pair is served as is", async () => {
  await withTempDir(async (dir) => {
    const pair = await selfSignedPair();
    await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
    await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem);
    await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem);
    const target = await startTarget({
      kind: "builtin",
      instances: 2,
      tls: { cert: `${dir}/cert.pem`, key: `${dir}/key.pem` },
    });
    try {
      assertMatch(target.url, /^https:/);
      assertEquals(target.caFile, undefined);
      for (let i = 0; i < 4; i++) {
        assertEquals(await getJson(`${target.url}/json`, `${dir}/ca.pem`), { message: "Hello, World!" });
      }
    } finally {
      await target.stop();
    }
  });
});

pool.test("tls: the caching proxy serves https, plain or https to its upstream", async () => {
  if (!requireProgram("redis-server")) return;
  await withTempDir(async (dir) => {
    for (const upstreamTls of [undefined, "self-signed" as const]) {
      const target = await startTarget(
        {
          kind: "proxy",
          tls: "self-signed",
          upstream: { kind: "builtin", tls: upstreamTls },
          cacheTtlSec: 5,
        },
        { logDir: dir },
      );
      try {
        assertMatch(target.url, /^https:/);
        assertEquals(target.caFile, `${dir}/proxy-tls-ca.pem`);
        // Twice: a miss forwarded upstream (verified with the upstream's own CA), then a hit.
        for (let i = 0; i < 2; i++) {
          assertEquals(await getJson(`${target.url}/json`, target.caFile!), { message: "Hello, World!" });
        }
        const stats = await target.stats();
        assertEquals([stats.misses, stats.hits], [1, 1], JSON.stringify(stats));
      } finally {
        await target.stop();
      }
    }
  });
});

pool.test("tls: an experiment compares http with https on the built-in target, verifying with its CA", async () => {
  await withTempDir(async (dir) => {
    const file = `${dir}/tls.yaml`;
    await Deno.writeTextFile(
      file,
      `name: tls-small
targets:
  http: { kind: builtin }
  https: { kind: builtin, tls: self-signed }
requests: [/json]
loads:
  keep-alive: { model: count, requests: 50, connections: 2 }
  per-request: { model: count, requests: 20, connections: 2, connection: per-arrival }
`,
    );
    const r = await runLoadlab(["run", file, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 0, r.stderr + r.stdout);
    const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    for (const run of results.runs) {
      const https = run.name.startsWith("https/");
      assertEquals(run.errors, {}, run.name);
      assertEquals(run.url.startsWith("https:"), https, run.name);
      assertEquals(run.tlsMs !== undefined && run.tlsMs !== null, https, run.name);
      if (https) assertEquals(run.tls.insecure, false);
    }
    const perRequest = results.runs.find((r: { name: string }) => r.name === "https/per-request");
    assertEquals(perRequest.connects, 20);
  });
});

pool.test("tls: a target's missing certificate and a load's non-PEM CA file are exit 2 before anything starts", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/not.pem`, "plain text\n");
    const file = `${dir}/bad.yaml`;
    await Deno.writeTextFile(
      file,
      `name: bad
targets:
  https: { kind: builtin, tls: { cert: ${dir}/missing.pem, key: ${dir}/missing.key } }
loads:
  a: { model: count, requests: 5, tls: { caFile: ${dir}/not.pem } }
`,
    );
    const r = await runLoadlab(["run", file, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 2, r.stderr);
    assertMatch(r.stderr, /targets\.https\.tls\.cert: cannot read .*missing\.pem \(no such file\)/);
    assertMatch(r.stderr, /loads\.a\.tls\.caFile: .*not\.pem holds no PEM block/);
  });
});
