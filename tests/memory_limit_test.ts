/**
 * @module
 * A session script that keeps what each iteration makes, run for real (`loadlab run session.ts` in a child
 * process against a Deno.serve on 127.0.0.1, `--max-memory-mb 300`): one that keeps 8 MB a session between
 * its requests, on two workers, and one whose session keeps 1.6 GB in a synchronous loop that never yields.
 * Each runs twice (`repeats: 2`), so loadlab lives on past the first cut while the ended isolates are
 * forced to end (2 s after they are asked), and the second run starts clean. Each run ends within seconds,
 * loadlab's RSS (read from outside every 10 ms) never far past the limit, the run flagged incomplete naming
 * memory, and what was counted before kept in results.json and report.html. Each script's allocation is
 * bounded (1.6 GB a run) and each run's duration (30 s), so a loadlab without the limit still ends, having
 * grown far past it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runWatched } from "./watched_run.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import type { RunResult } from "../results/schema/results.ts";

const SESSION_TYPES = new URL("../runner/script/session.ts", import.meta.url).pathname;
const LIMIT_MB = 300;
/**
 * How far past the limit loadlab may be seen: the limit is read every 20 ms and a synchronous loop adds up to
 * 2 GB/s, then its isolate stalls at its old generation's cap (the limit) until it is forced to end, while
 * the main isolate writes the results (measured: 100-190 MB past, with both cores busy).
 */
const MARGIN_MB = 300;

/** The script's module: its load (2 connections for 30 s on `workers`, twice) against `url`, then `body`. */
function scriptText(url: string, workers: number, body: string): string {
  return `import type { Session } from "${SESSION_TYPES}";
export const options = {
  repeats: 2,
  targets: { t: { url: "${url}" } },
  loads: { l: { model: "connections", connections: 2, workers: ${workers}, duration: "30s", gracefulStop: "500ms" } },
};
const keep: number[][] = [];
// Each worker's first second is measured whole (its samples reach the main isolate) before it keeps anything.
let firstMs: number | undefined;
const keeping = () => performance.now() - (firstMs ??= performance.now()) > 1_000;
${body}
`;
}

/** After a second, 8 MB kept by each session before its request, up to 100 a worker (1.6 GB over two). */
const KEEPS_EACH_SESSION = `export default async (s: Session) => {
  if (keeping() && keep.length < 100) keep.push(new Array(1e6).fill(1));
  await s.get("/");
};`;

/** After a second, a session keeps 1.6 GB (2,000 arrays of 800 KB) in a loop that never yields. */
const KEEPS_IN_A_LOOP = `export default async (s: Session) => {
  await s.get("/");
  if (keeping() && keep.length === 0) for (let i = 0; i < 2_000; i++) keep.push(new Array(1e5).fill(0));
};`;

/** `loadlab run session.ts --max-memory-mb 300` of `source` from a fresh folder, its RSS watched. */
async function runSession(source: string) {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-memory-" });
  await Deno.writeTextFile(`${dir}/session.ts`, source);
  const args = ["run", "session.ts", "--out-dir", "out", "--max-memory-mb", String(LIMIT_MB)];
  return { dir, ...await runWatched(args, dir) };
}

/** Runs `fn` with a target on 127.0.0.1 that answers "ok" and counts what it received. */
async function withTarget(fn: (url: string, received: () => number) => Promise<void>) {
  let received = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    received++;
    return new Response("ok");
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, () => received);
  } finally {
    await server.shutdown();
  }
}

/** Each run ended on memory, in bounded time and memory, its counts kept and written. */
async function assertEndedOnMemory(body: string, workers: number) {
  await withTarget(async (url, received) => {
    const { code, text, dir, peakMb, seconds } = await runSession(scriptText(url, workers, body));
    try {
      console.log(`loadlab's peak ${peakMb.toFixed(0)} MB, ${seconds.toFixed(1)} s for two runs`);
      // Start-up, then each run's second of load, its cut and its workers' end; 60 s would pass only without
      // it.
      ok(seconds < 40, `ran ${seconds} s\n${text}`);
      ok(peakMb < LIMIT_MB + MARGIN_MB, `loadlab reached ${peakMb} MB\n${text}`);
      const { runs } = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(runs.length, 2);
      // What the workers counted before they were ended is the runs', as the target saw it.
      const counted = runs.reduce((sum: number, run: { requests: number }) => sum + run.requests, 0);
      ok(counted <= received(), `${counted} of ${received()}`);
      for (const run of runs) assertRunEndedOnMemory(run, workers);
      // The terminal says it, and the runs exit as any flagged run does (0; 6 with --strict).
      ok(text.includes("loadlab's memory passed 300 MB"), text);
      assertEquals(code, 0, text);
      ok((await Deno.stat(`${dir}/out/report.html`)).size > 0);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

/**
 * One run: flagged naming memory, cut over the limit, its first second's answers kept with their latencies
 * (a cut worker's session totals end with it, as a stuck one's): the second run's own, not cut as it
 * started by what the first run's ended isolates still held.
 */
function assertRunEndedOnMemory(run: RunResult, workers: number) {
  assertEquals([run.incomplete, run.memoryCut?.limitMb, run.memoryCut?.workers], [true, LIMIT_MB, workers]);
  ok(run.memoryCut!.rssMb > LIMIT_MB, JSON.stringify(run.memoryCut));
  ok(run.requests > 0, run.name);
  const measured = run.intervals.filter((iv) => Number.isFinite(iv.p50));
  ok(measured.length >= 3, JSON.stringify(run.intervals.map((iv) => iv.p50)));
  const { label } = runVerdict(run);
  ok(
    label.includes(
      `incomplete: loadlab's memory passed ${LIMIT_MB} MB (its limit; --max-memory-mb or maxMemoryMb to change) ` +
        "in session.ts: a session script that keeps what each iteration makes grows without bound",
    ),
    label,
  );
}

Deno.test("a script that keeps 8 MB each session on two workers: both are ended past the memory limit, the run named so", () =>
  assertEndedOnMemory(KEEPS_EACH_SESSION, 2));

Deno.test("a script that keeps 1.6 GB in a synchronous loop: its worker is ended past the memory limit, the run named so", () =>
  assertEndedOnMemory(KEEPS_IN_A_LOOP, 1));
