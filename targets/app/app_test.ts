import { deepStrictEqual as assertEquals, match as assertMatch, ok as assert } from "node:assert/strict";
import { createTargetApp, JSON_BYTES } from "./app.ts";
import { gunzipSync } from "node:zlib";

const { app, fetch } = createTargetApp();

Deno.test("fast path answers / and /json with the same bytes as the Hono routes", async () => {
  for (const path of ["/", "/json"]) {
    const fast = await fetch(new Request(`http://127.0.0.1:1${path}`));
    const routed = await app.request(path);
    assertEquals(fast.status, 200);
    assertEquals(await fast.text(), await routed.text());
    assertEquals(fast.headers.get("content-type"), routed.headers.get("content-type"));
  }
  // The pre-encoded body is shared between responses: it must survive being sent twice.
  const again = await fetch(new Request("http://127.0.0.1:1/json"));
  assertEquals(new Uint8Array(await again.arrayBuffer()), JSON_BYTES);
  assertEquals(JSON_BYTES.length, 27);
});

Deno.test("fast path leaves other paths (query strings too) to Hono, and answers any method", async () => {
  assertEquals((await fetch(new Request("http://127.0.0.1:1/jsonx"))).status, 404);
  assertEquals((await fetch(new Request("http://127.0.0.1:1/xjson"))).status, 404);
  const withQuery = await fetch(new Request("http://127.0.0.1:1/json?x=1"));
  assertEquals(await withQuery.json(), { message: "Hello, World!" }, "Hono's /json route answers it");
  const post = await fetch(new Request("http://127.0.0.1:1/json", { method: "POST" }));
  assertEquals(post.status, 200, "the hot path reads only the URL");
  await post.body?.cancel();
});

Deno.test("/static serves the embedded sample site and refuses to climb out", async () => {
  const page = await app.request("/static/index.html");
  assertEquals(page.status, 200);
  assertMatch(page.headers.get("content-type")!, /text\/html/);
  assertMatch(await page.text(), /Sample site/);
  const png = await app.request("/static/images/photo.png");
  assertEquals(png.headers.get("content-type"), "image/png");
  assertEquals([...new Uint8Array(await png.arrayBuffer()).subarray(1, 4)], [80, 78, 71]);
  assertEquals((await app.request("/static/../deno.json")).status, 404);
  assertEquals((await app.request("/static/nope.html")).status, 404);
  assertMatch(
    await (await app.request("/static/")).text(),
    /Sample site/,
    "a directory means its index.html",
  );
});

Deno.test("/static can serve a directory instead", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.txt`, "from disk");
    const own = createTargetApp({ staticDir: dir }).app;
    assertEquals(await (await own.request("/static/a.txt")).text(), "from disk");
    assertEquals((await own.request("/static/%2e%2e/etc/passwd")).status, 404);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("/static from a directory serves no file whose real path leaves it, nor a FIFO", async () => {
  const parent = await Deno.makeTempDir();
  try {
    const site = `${parent}/site`;
    await Deno.mkdir(site);
    await Deno.mkdir(`${parent}/site2`);
    await Deno.writeTextFile(`${site}/a.txt`, "inside");
    await Deno.writeTextFile(`${parent}/site2/secret.txt`, "outside");
    await Deno.symlink("a.txt", `${site}/alias.txt`);
    await Deno.symlink("/etc/passwd", `${site}/passwd`);
    await Deno.symlink("../site2/secret.txt", `${site}/sibling.txt`);
    await Deno.symlink(parent, `${site}/up`);
    const made = await new Deno.Command("mkfifo", { args: [`${site}/pipe`] }).output();
    const own = createTargetApp({ staticDir: `${site}/` }).app;
    const status = async (path: string) => (await own.request(path)).status;
    assertEquals(await (await own.request("/static/alias.txt")).text(), "inside", "a link that stays inside");
    for (
      const path of [
        "passwd",
        "sibling.txt",
        "up/site2/secret.txt",
        "up/site/a.txt/x",
        "%zz",
        "..%2fsite2/secret.txt",
      ]
    ) {
      assertEquals(await status(`/static/${path}`), 404, path);
    }
    if (made.success) assertEquals(await status("/static/pipe"), 404, "a FIFO would hold the request open");
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("/cpu, /fib and /sleep do their work and reject bad numbers", async () => {
  const cpu = await (await app.request("/cpu?ms=5")).json();
  assertEquals(cpu.ms, 5);
  assert(cpu.spins > 0);
  assertEquals(await (await app.request("/fib/23")).json(), { n: 23, fib: 28657 });
  assertEquals((await app.request("/fib/99")).status, 400);
  const started = performance.now();
  assertEquals(await (await app.request("/sleep?ms=30")).json(), { sleptMs: 30 });
  assert(performance.now() - started >= 25);
  assertEquals((await app.request("/sleep?ms=-1")).status, 400);
});

Deno.test("/error/1 divides by zero and answers 500 through the error handler", async () => {
  const bad = await app.request("/error/1");
  assertEquals(bad.status, 500);
  assertEquals(await bad.json(), { error: "division by zero" });
  const good = await app.request("/error/3");
  assertEquals(await good.json(), { result: 50 });
});

Deno.test("/validate answers 400 with the reason", async () => {
  assertEquals(await (await app.request("/validate?id=7&name=Grace")).json(), {
    ok: true,
    id: 7,
    name: "Grace",
  });
  const short = await app.request("/validate?id=7&name=Bob");
  assertEquals(short.status, 400);
  assertMatch(JSON.stringify(await short.json()), /at least 5 characters/);
  const badId = await app.request("/validate?id=x1&name=Grace");
  assertEquals(badId.status, 400);
  assertMatch(JSON.stringify(await badId.json()), /id must be an integer/);
});

Deno.test("/user answers the record, later with delayMs; /home renders per request", async () => {
  const started = performance.now();
  const user = await (await app.request("/user?delayMs=20")).json();
  assert(performance.now() - started >= 15);
  assertEquals(user.name, "Ada Lovelace");
  const home = await app.request("/home");
  assertMatch(home.headers.get("content-type")!, /text\/html/);
  const html = await home.text();
  assertMatch(html, /Rendered at \d{4}-/);
  assertMatch(html, /&#60;7 words&#62;/);
});

Deno.test("/redis/:key without Redis says how to configure it", async () => {
  const res = await app.request("/redis/key:1");
  assertEquals(res.status, 503);
  assertMatch(await res.text(), /--redis/);
});

Deno.test("compression: gzip or brotli above 1 KiB, never for images", async () => {
  const gz = createTargetApp({ compress: true }).app;
  const page = await gz.request("/home", { headers: { "accept-encoding": "gzip" } });
  assertEquals(page.headers.get("content-encoding"), "gzip");
  assertMatch(gunzipSync(new Uint8Array(await page.arrayBuffer())).toString(), /loadlab wiki/);
  const br = await gz.request("/home", { headers: { "accept-encoding": "gzip, br" } });
  assertEquals(br.headers.get("content-encoding"), "br");
  await br.body?.cancel();
  const small = await gz.request("/user", { headers: { "accept-encoding": "gzip" } });
  assertEquals(small.headers.get("content-encoding"), null);
  await small.body?.cancel();
  const png = await gz.request("/static/images/photo.png", { headers: { "accept-encoding": "gzip" } });
  assertEquals(png.headers.get("content-encoding"), null);
  await png.body?.cancel();
  const onlyGzip = createTargetApp({ compress: "gzip" }).app;
  const res = await onlyGzip.request("/home", { headers: { "accept-encoding": "br" } });
  assertEquals(res.headers.get("content-encoding"), null);
  await res.body?.cancel();
});

Deno.test("response cache serves the stored page until the TTL ends", async () => {
  const cached = createTargetApp({ cacheTtlSec: 0.2, compress: true });
  const first = await (await cached.app.request("/home")).text();
  const hit = await cached.app.request("/home");
  assertEquals(hit.headers.get("x-cache"), "HIT");
  assertEquals(await hit.text(), first);
  const gz = await cached.app.request("/home", { headers: { "accept-encoding": "gzip" } });
  assertEquals(gz.headers.get("x-cache"), "MISS", "another encoding is another entry");
  await gz.body?.cancel();
  await new Promise((r) => setTimeout(r, 250));
  const expired = await cached.app.request("/home");
  assertEquals(expired.headers.get("x-cache"), "MISS");
  await expired.body?.cancel();
  assertEquals(cached.cache!.stats.hits, 1);
});

Deno.test("/home queries the pool before rendering; a query that waits too long answers 503", async () => {
  const cms = createTargetApp({ cms: { poolSize: 1, queries: 2, queryMs: 30, acquireTimeoutMs: 20 } });
  const [a, b] = await Promise.all([cms.app.request("/home"), cms.app.request("/home")]);
  assertEquals([a.status, b.status].sort(), [200, 503]);
  assertMatch(await (a.status === 503 ? a : b).text(), /no pool slot within 20 ms/);
  await (a.status === 200 ? a : b).body?.cancel();
  assertEquals(cms.stats(), { cmsQueries: 2, cmsQueued: 0, cmsQueueWaitMs: 0, cmsAcquireTimeouts: 1 });
  const none = createTargetApp({ cms: { queries: 0 } });
  assertMatch(await (await none.app.request("/home")).text(), /loadlab wiki/);
  assertEquals(none.stats().cmsQueries, 0);
});

Deno.test("/static/news.html changes version every second, in a header and the body", async () => {
  const clock = { nowMs: 1_700_000_000_500 };
  const { app } = createTargetApp({ nowMs: () => clock.nowMs });
  const page = await app.request("/static/news.html");
  assertEquals(page.headers.get("x-page-version"), "1700000000");
  assertMatch(await page.text(), /version: 1700000000/);
  clock.nowMs += 1000;
  assertEquals((await app.request("/static/news.html")).headers.get("x-page-version"), "1700000001");
});

Deno.test("response cache counts the hits that served an outdated version (staleHits)", async () => {
  const clock = { nowMs: 1_700_000_000_000 };
  const target = createTargetApp({ cacheTtlSec: 10, nowMs: () => clock.nowMs });
  const get = async (path: string) => {
    const res = await target.app.request(path);
    return [res.headers.get("x-cache"), res.headers.get("x-page-version"), await res.text()] as const;
  };
  assertEquals((await get("/static/news.html")).slice(0, 2), ["MISS", "1700000000"]);
  assertEquals((await get("/static/news.html")).slice(0, 2), ["HIT", "1700000000"], "same second: fresh");
  clock.nowMs += 2500;
  const [cache, version, body] = await get("/static/news.html");
  assertEquals([cache, version], ["HIT", "1700000000"], "the TTL keeps the old version");
  assertMatch(body, /version: 1700000000/);
  await get("/static/about.html");
  await get("/static/about.html");
  assertEquals(target.stats(), {
    cacheHits: 3,
    cacheMisses: 2,
    staleHits: 1,
    cmsQueries: 0,
    cmsQueued: 0,
    cmsQueueWaitMs: 0,
    cmsAcquireTimeouts: 0,
  });
});

Deno.test("the stats path answers the counters before Hono, so the response cache never stores them", async () => {
  const target = createTargetApp({ cacheTtlSec: 60 });
  await (await target.app.request("/home")).body?.cancel();
  const stats = async () =>
    await (await target.fetch(new Request("http://127.0.0.1:1/__loadlab/stats"))).json();
  assertEquals((await stats()).cmsQueries, 3);
  assertEquals((await stats()).pid, Deno.pid);
  await (await target.app.request("/home")).body?.cancel();
  assertEquals((await stats()).cacheHits, 1, "a fresh answer each time");
});
