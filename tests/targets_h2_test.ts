/**
 * End to end: the built-in target, its balancer and the caching proxy speak HTTP/2 with no option to set:
 * h2c with prior knowledge on a plain port (Deno.serve reads the preface; the balancer relays such a
 * connection to one instance) and h2 chosen by ALPN on a TLS port, HTTP/1.1 still served beside it. Seen by
 * the small raw h2 client of the fixtures (loadlab's HPACK codec) and, where installed, by h2load and curl.
 */
import { deepStrictEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import type { TargetSpec } from "../targets/spec.ts";
import { H2RawClient } from "./fixtures/h2_raw_client.ts";
import { requireProgram, withTempDir } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

const JSON_BODY = JSON.stringify({ message: "Hello, World!" });

/** Opens an h2 connection to `url` (TLS with the CA when https) and GETs /json on 10 streams at once. */
async function tenStreams(url: string, caFile?: string): Promise<string | null> {
  const u = new URL(url);
  const caCerts = u.protocol === "https:" ? [await Deno.readTextFile(caFile!)] : undefined;
  const client = await H2RawClient.open(Number(u.port), { caCerts });
  try {
    const answers = await Promise.all(client.getAll(Array(10).fill("/json")));
    assertEquals(answers.map((a) => [a.status, a.body]), Array(10).fill([200, JSON_BODY]));
    return client.alpn;
  } finally {
    client.close();
    await client.loop;
  }
}

/** h2load's summary of a small bounded run (`-n 200 -c 2 -m 10`), when h2load is installed. */
async function h2load(url: string): Promise<string | null> {
  if (!requireProgram("h2load")) return null;
  const out = await new Deno.Command("h2load", {
    args: ["-n", "200", "-c", "2", "-m", "10", "-t", "1", `${url}/json`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout);
}

async function check(spec: TargetSpec, dir: string, h2Protocol: "h2" | "h2c"): Promise<void> {
  const target = await startTarget(spec, { logDir: dir });
  try {
    const alpn = await tenStreams(target.url, target.caFile);
    assertEquals(alpn, h2Protocol === "h2" ? "h2" : null);
    const report = await h2load(target.url);
    if (report !== null) {
      assertMatch(report, new RegExp(`Application protocol: ${h2Protocol}\\b`));
      assertMatch(report, /requests: 200 total, 200 started, 200 done, 200 succeeded, 0 failed/);
    }
  } finally {
    await target.stop();
  }
}

/** Cases at once: each waits on its target processes. */
const pool = testPool(4);

pool.test("h2: the built-in target serves h2c on a plain port and h2 by ALPN with tls", async () => {
  await withTempDir(async (dir) => {
    await check({ kind: "builtin" }, dir, "h2c");
    await check({ kind: "builtin", tls: "self-signed" }, dir, "h2");
  });
});

pool.test("h2: the balancer relays h2c, and h2 by ALPN when it ends TLS", async () => {
  await withTempDir(async (dir) => {
    await check({ kind: "builtin", instances: 2 }, dir, "h2c");
    await check({ kind: "builtin", instances: 2, tls: "self-signed" }, dir, "h2");
  });
});

pool.test("h2: a TLS balancer's own counters still answer (its stats are read over HTTP/1.1)", async () => {
  await withTempDir(async (dir) => {
    const target = await startTarget({ kind: "builtin", instances: 2, tls: "self-signed" }, { logDir: dir });
    try {
      await tenStreams(target.url, target.caFile);
      const stats = await target.stats();
      // instanceN are the balancer's per-instance request counts: an instance's own stats have none.
      assertEquals(
        ["instance1", "instance2"].map((k) => typeof stats[k]),
        ["number", "number"],
        JSON.stringify(stats),
      );
    } finally {
      await target.stop();
    }
  });
});

pool.test("h2: the caching proxy serves h2 by ALPN and h2c", async () => {
  if (!requireProgram("redis-server")) return;
  await withTempDir(async (dir) => {
    const upstream = { kind: "builtin" } as const;
    await check({ kind: "proxy", upstream, cacheTtlSec: 5 }, dir, "h2c");
    await check({ kind: "proxy", tls: "self-signed", upstream, cacheTtlSec: 5 }, dir, "h2");
  });
});

pool.test("h2: curl negotiates HTTP/2 with the TLS target and keeps HTTP/1.1 when asked", async () => {
  if (!requireProgram("curl")) return;
  await withTempDir(async (dir) => {
    const target = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
    try {
      for (const [flag, version] of [["--http2", "2"], ["--http1.1", "1.1"]]) {
        const out = await new Deno.Command("curl", {
          args: [
            "-s",
            flag,
            "--cacert",
            target.caFile!,
            "-o",
            "/dev/null",
            "-w",
            "%{http_version} %{http_code}",
            `${target.url}/json`,
          ],
          stdout: "piped",
        }).output();
        assertEquals(new TextDecoder().decode(out.stdout), `${version} 200`);
      }
    } finally {
      await target.stop();
    }
  });
});
