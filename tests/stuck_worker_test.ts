/**
 * A worker stuck in code that never yields (a capture's regexp, `^(a+)+$` on 40 a's and a `!`, which
 * backtracks for hours) cannot hear a stop; the pool ends it past the graceful stop + its margin, so
 * the run ends on its own (results written, `incomplete`, `stuckWorkers: 1`, the answer it was capturing
 * from counted, its latency named lost) and SIGTERM still gives
 * exit 143 in bounded time. A count load (no duration) ends it once it was silent for its timeout and
 * graceful stop, not at its max duration. Through the real CLI against a Deno.serve target on 127.0.0.1.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runVerdict } from "../results/conclude/run_verdict.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The target: every answer is the regexp's worst case. */
function target() {
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    received++;
    return new Response("a".repeat(40) + "!");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    received: () => received,
    close: () => server.shutdown(),
  };
}

/** The experiment; `load` is its load's fields after `model:` (a duration by default). */
function experiment(
  url: string,
  duration: string,
  load = `connections, connections: 1, workers: 1, duration: ${duration}`,
): string {
  return `name: stuck
targets:
  t: { url: "${url}" }
loads:
  l: { model: ${load}, gracefulStop: 500ms }
flows:
  - name: f
    steps:
      - get: /
        capture: [{ regexp: "^(a+)+$", as: x }]
`;
}

/** Starts `run` on the experiment; the child, and when it started (ms). */
async function start(dir: string, url: string, duration: string, load?: string) {
  await Deno.writeTextFile(`${dir}/exp.yaml`, experiment(url, duration, load));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
    // A hang fails the test instead of holding the suite (the old behaviour ran for minutes).
    signal: AbortSignal.timeout(90_000),
  }).spawn();
  return { child, startedMs: performance.now() };
}

async function withTarget(fn: (url: string, dir: string, received: () => number) => Promise<void>) {
  const t = target();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-stuck-" });
  try {
    await fn(t.url, dir, t.received);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a worker stuck in a capture's regexp is ended past the graceful stop: the run ends, flagged", async () => {
  await withTarget(async (url, dir) => {
    const { child, startedMs } = await start(dir, url, "1s");
    const out = await child.output();
    // Start-up, 1 s and the 0.5 s graceful stop, the silent worker ended then: 60 s only fails a hang.
    ok(performance.now() - startedMs < 60_000, `ran ${performance.now() - startedMs} ms`);
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;
    // The answer whose capture never ends was counted before it (from the worker's heartbeat: no sample of
    // it came), its latency lost with the worker; nothing else was in flight, so nothing is unfinished.
    assertEquals(
      [run.stuckWorkers, run.incomplete, run.requests, run.unrecordedLatencies, run.unfinished ?? 0],
      [1, true, 1, 1, 0],
    );
    const { label } = runVerdict(run);
    assertEquals(label, "incomplete: 1 worker stuck; latencies of 1 answer lost with it");
    // An incomplete run that was answered exits as flagged runs do (0; 6 with --strict), its line saying why.
    assertEquals(out.code, 0);
    const said = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    ok(said.includes(label), said);
  });
});

Deno.test("SIGTERM during a run whose worker is stuck in a capture's regexp: exit 143 in bounded time", async () => {
  await withTarget(async (url, dir, received) => {
    const { child } = await start(dir, url, "60s");
    const deadline = Date.now() + 30_000;
    while (received() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    ok(received() > 0, "the target was reached");
    const killedMs = performance.now();
    child.kill("SIGTERM");
    const out = await child.output();
    assertEquals(out.code, 143, new TextDecoder().decode(out.stderr));
    // The graceful stop (0.5 s), the silent worker ended then, and the results: 40 s only fails a hang.
    ok(performance.now() - killedMs < 40_000, `ended ${performance.now() - killedMs} ms after SIGTERM`);
  });
});

Deno.test("a count load whose worker is stuck is ended once it has been silent for its timeout and graceful stop, not at the 10 minute max duration", async () => {
  await withTarget(async (url, dir) => {
    const load = "count, requests: 3, connections: 1, workers: 1, timeout: 1s";
    const { child, startedMs } = await start(dir, url, "", load);
    await child.output();
    // Start-up, the 1 s timeout and the 0.5 s graceful stop, then the silent worker ended: 60 s fails a hold.
    ok(performance.now() - startedMs < 60_000, `ran ${performance.now() - startedMs} ms`);
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;
    // The first answer was counted before its capture held the worker: nothing was left in flight.
    assertEquals([run.stuckWorkers, run.incomplete, run.requests, run.unfinished ?? 0], [1, true, 1, 0]);
  });
});
