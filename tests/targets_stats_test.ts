/**
 * End-to-end tests of target counters read the way the runner reads them (`RunningTarget.stats()`,
 * differences over a run) and of `info`: the built-in target's response cache counts stale hits of the
 * news page, and a proxy reports its own counters together with those of the built-in target behind it.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { startTarget } from "../targets/start.ts";
import { requireProgram } from "./helpers.ts";

const hasRedis = requireProgram("redis-server");

async function get(url: string): Promise<Response> {
  const res = await fetch(url);
  await res.body?.cancel();
  return res;
}

Deno.test("builtin with a response cache: hits of the news page after its version moved on are staleHits", async () => {
  const target = await startTarget({ kind: "builtin", cacheTtlSec: 30 });
  try {
    const before = await target.stats();
    const first = await get(`${target.url}/static/news.html`);
    // Wait into the next second: the page's version changes, the cached copy does not.
    await new Promise((r) => setTimeout(r, 1100));
    const second = await get(`${target.url}/static/news.html`);
    assertEquals(second.headers.get("x-cache"), "HIT");
    assertEquals(second.headers.get("x-page-version"), first.headers.get("x-page-version"));
    const after = await target.stats();
    assertEquals(after.staleHits - (before.staleHits ?? 0), 1);
    assertEquals(after.cacheMisses - (before.cacheMisses ?? 0), 1);
  } finally {
    await target.stop();
  }
});

Deno.test({
  name: "proxy over the built-in target: its counters and the upstream's in one record, info names both",
  ignore: !hasRedis,
  async fn() {
    const proxy = await startTarget({ kind: "proxy", upstream: { kind: "builtin" }, cacheTtlSec: 60 });
    try {
      for (let i = 0; i < 3; i++) await get(`${proxy.url}/home`);
      const stats = await proxy.stats();
      assertEquals([stats.hits, stats.misses], [2, 1]);
      assertEquals(stats.cmsQueries, 3, "one page rendered upstream, 3 queries");
      assert(proxy.info.kind === "proxy" && proxy.info.upstream?.kind === "builtin");
      assertEquals(proxy.info.runtime, `deno ${Deno.version.deno}`);
    } finally {
      await proxy.stop();
    }
  },
});
