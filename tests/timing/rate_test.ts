/**
 * Timing-sensitive end-to-end test (run serially, not beside the parallel suite): the open model at a
 * set rate must reach it within 2%, measured by loadlab and by what the target received.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runLoadlab } from "../helpers.ts";

function countingTarget() {
  const seen = { requests: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    seen.requests++;
    return new Response("ok");
  });
  return { url: `http://127.0.0.1:${server.addr.port}/`, seen, close: () => server.shutdown() };
}

Deno.test("attack open model at a set rate reaches it within 2%", async () => {
  const t = countingTarget();
  try {
    const r = await runLoadlab(["attack", t.url, "-R", "400", "-d", "3s", "--json"]);
    assertEquals(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    ok(Math.abs(json.rps - 400) / 400 < 0.02, `achieved ${json.rps} req/s`);
    ok(Math.abs(t.seen.requests - 1200) / 1200 < 0.02, `target received ${t.seen.requests}`);
    assertEquals(json.model, "rate");
  } finally {
    await t.close();
  }
});
