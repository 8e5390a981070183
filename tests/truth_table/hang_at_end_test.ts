/**
 * @module
 * Truth table, a target that stops answering: it answers its first 40 requests, then holds every later one
 * open without a word. The requests waiting when the graceful stop ran out are `unfinished`, not failures
 * of the success rate; but their latencies, the run's slowest, are missing from the percentiles, so the
 * run must not read `ok`: it is flagged `unanswered N at the stop`, exit 0 without `--strict` and 6 with
 * it. A hard stop (`gracefulStop: 0s`) cuts in-flight requests by design and is not flagged (the hard-stop
 * class). Bounded: 1 s of load on 4 connections, the default 2 s graceful stop.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";

/** Answers `answered` requests, then holds every later one until closed. */
function stallingServer(answered: number) {
  let served = 0;
  const held = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    if (served++ < answered) return new Response("ok");
    return new Promise<Response>((resolve) => {
      held.signal.addEventListener("abort", () => resolve(new Response("late")), { once: true });
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/`,
    close: async () => {
      held.abort();
      await server.shutdown();
    },
  };
}

/** `attack` against a fresh stalling target (its count starts again), with `extra` flags. */
async function attackStalled(dir: string, name: string, extra: string[]) {
  const server = stallingServer(40);
  try {
    const out = `${dir}/${name}.json`;
    const r = await runLoadlab([
      "attack",
      server.url,
      ...["-c", "4", "-d", "1s", "--timeout", "30s", "--no-live", "-o", out, ...extra],
    ]);
    return { ...r, run: JSON.parse(await Deno.readTextFile(out)).runs[0] as RunResult };
  } finally {
    await server.close();
  }
}

Deno.test("truth table: requests a stalled target left unanswered at the graceful stop flag the run", async () => {
  await withTempDir(async (dir) => {
    const plain = await attackStalled(dir, "plain", []);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.run.requests, 40);
    assert.equal(plain.run.unfinished, 4, "each connection's held request was cut by the stop");
    assert.equal(plain.run.successRate, 1, "cut requests are no failures of the target");
    assert.match(plain.stdout, /Verdict: unanswered 4 at the stop/, plain.stdout);
    const strict = await attackStalled(dir, "strict", ["--strict"]);
    assert.equal(strict.code, 6, strict.stderr);
  });
});
