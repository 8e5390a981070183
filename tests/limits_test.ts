/**
 * @module
 * The load's own limits end to end, run as users run `loadlab attack`: a rate at the cap against a local
 * target ends soon after its duration in bounded memory, the sends it could not make counted as dropped; and
 * requests still unanswered when the graceful stop ends (a server that reads and never answers) are counted
 * as `unfinished` (apart from the failures) on both transports and every load model, in results.json, the
 * summary and the exit-4 line, instead of vanishing. Loads are bounded in time and go to 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { epollBlocker } from "../runner/http/transport/choice.ts";
import { watchPeakRssKb } from "./watched_run.ts";
import type { ResultsFile } from "../results/mod.ts";
import { testPool } from "./fixtures/test_pool.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** Runs loadlab, sampling its resident memory (/proc) every 100 ms; the peak in MB. */
async function runSampled(args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  const rss = watchPeakRssKb(child.pid, 100);
  const started = performance.now();
  // A generous bound: an unbounded schedule ran for minutes; a bounded one ends seconds after -d.
  const killer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const out = await child.output();
  clearTimeout(killer);
  const peakMb = rss.stop() / 1024;
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    elapsedMs: performance.now() - started,
    peakMb,
  };
}

Deno.test("a rate at the cap (-R 10000000 -d 3s) ends within seconds in bounded memory, the rest dropped", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await withTempDir(async (dir) => {
      const url = `http://127.0.0.1:${server.addr.port}/`;
      const r = await runSampled(["attack", url, "-R", "10000000", "-d", "3s", "-o", `${dir}/r.json`, "-q"]);
      const what = `exit ${r.code}, ${Math.round(r.elapsedMs)} ms, peak ${
        Math.round(r.peakMb)
      } MB: ${r.stderr}`;
      ok(r.code === 0 || r.code === 1, what);
      // Before the bound: 49 s and 505 MB on an idle-ish machine, every due send queued and then drained.
      ok(r.elapsedMs < 30_000, `ends soon after its duration: ${what}`);
      ok(r.peakMb < 400, `memory stays bounded: ${what}`);
      const run = (JSON.parse(await Deno.readTextFile(`${dir}/r.json`)) as ResultsFile).runs[0];
      ok(
        run.droppedSends > 1_000_000,
        `the sends it could not make are counted dropped: ${run.droppedSends}`,
      );
      ok(run.requests > 0, "some were answered");
    });
  } finally {
    await server.shutdown();
  }
});

/** A server that reads requests and never answers; counts the connections it accepted. */
function silentServer() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) {
      conns.push(conn);
      (async () => {
        const buf = new Uint8Array(4096);
        try {
          while ((await conn.read(buf)) !== null) { /* never answer */ }
        } catch { /* closed */ }
      })();
    }
  })().catch(() => {});
  return {
    url: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}/`,
    close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
    },
  };
}

/** Runs at once: each is a `loadlab attack` of 1 s and its start-up, its requests held unanswered. */
const pool = testPool(4);
const TRANSPORTS = epollBlocker(new URL("http://127.0.0.1/")) === null ? ["epoll", "deno"] : ["deno"];

/** Each model's flags, with how many requests it sends before the end (null: at least one). */
const MODELS: Array<[string, string[], number | null]> = [
  ["connections", ["-c", "10", "-d", "1s"], 10],
  ["count", ["-n", "6", "-c", "3", "-d", "1s"], 3],
  ["rate", ["-R", "10", "-d", "1s"], null],
  ["throughput", ["-R", "10", "-c", "2", "-d", "1s"], null],
];

for (const transport of TRANSPORTS) {
  for (const [model, flags, sent] of MODELS) {
    pool.test(`${model} [${transport}]: requests unanswered at the end are counted as unfinished`, async () => {
      const server = silentServer();
      try {
        await withTempDir(async (dir) => {
          const r = await runSampled([
            "attack",
            server.url,
            ...flags,
            ...["--timeout", "30s", "--transport", transport, "-o", `${dir}/r.json`],
          ]);
          const what = `exit ${r.code}: ${r.stderr}`;
          assertEquals(r.code, 4, what);
          ok(
            /no response at all.*unfinished \(cut by the stop\): \d+/.test(r.stderr),
            what,
          );
          ok(!r.stderr.includes("no request was sent"), what);
          const run = (JSON.parse(await Deno.readTextFile(`${dir}/r.json`)) as ResultsFile).runs[0];
          const unfinished = run.unfinished ?? 0;
          if (sent !== null) assertEquals(unfinished, sent, JSON.stringify(run));
          else ok(unfinished > 0, `unfinished ${unfinished}`);
          assertEquals(run.errors, {}, "cut by the run's own stop: no failure of the target");
          assertEquals(run.requests, 0);
          ok(r.stdout.includes("unfinished"), `the summary lists the kind: ${r.stdout}`);
        });
      } finally {
        server.close();
      }
    });
  }
}
