/**
 * @module
 * A session script that grows loadlab where no load runs, run for real (`loadlab run memory_phases.ts` in
 * a child process against a Deno.serve on 127.0.0.1, `--max-memory-mb 300`, loadlab's RSS read from
 * outside every 10 ms): in setup(), at its top level (in every isolate that imports it, and in the load
 * workers only) and in teardown(), each in a synchronous loop that keeps up to 1.6 GB. Each phase is
 * ended within seconds (not at its 60 s time limit) a little past the limit, with one line naming memory,
 * the phase and the flag, and exits as that phase's other failures do: 2 before the load, nothing sent;
 * a warning after it, the run's results kept. The load's request timeout (1 s) bounds a hung prepare, so
 * a loadlab without the limit still ends, having grown far past it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runWatched } from "./watched_run.ts";
import { withTempDir } from "./helpers.ts";

const SCRIPT = new URL("./fixtures/scripts/memory_phases.ts", import.meta.url).pathname;
const LIMIT_MB = 300;
/**
 * How far past the limit loadlab may be seen: it is read every 20 ms and the loop adds up to 2 GB/s, then
 * its isolate stalls at its old generation's cap (the limit) until it is ended (as in memory_limit_test.ts).
 */
const MARGIN_MB = 300;
const PASSED =
  `grew loadlab's memory past ${LIMIT_MB} MB (its limit; --max-memory-mb or maxMemoryMb to change)`;

/** `loadlab run memory_phases.ts --max-memory-mb 300` growing in `phase`, against a counting target. */
function runGrowing(
  phase: string,
  check: (out: Outcome) => Promise<void> | void,
  { limitMb, marginMb } = { limitMb: LIMIT_MB, marginMb: MARGIN_MB },
) {
  return withTempDir(async (dir) => {
    let received = 0;
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      received++;
      return new Response("ok");
    });
    try {
      const args = ["run", SCRIPT, "--out-dir", `${dir}/out`, "--max-memory-mb", String(limitMb)];
      const env = { MEMORY_PHASE: phase, TARGET_URL: `http://127.0.0.1:${server.addr.port}` };
      const { code, text, peakMb, seconds } = await runWatched(args, dir, env);
      console.log(`${phase}: loadlab's peak ${peakMb.toFixed(0)} MB, ${seconds.toFixed(1)} s`);
      // Start-up (a type check), then a second or two of growing and its end; 60 s is the setup timeout.
      ok(seconds < 30, `ran ${seconds} s\n${text}`);
      ok(peakMb < limitMb + marginMb, `loadlab reached ${peakMb} MB\n${text}`);
      await check({ code, text, dir, received });
    } finally {
      await server.shutdown();
    }
  });
}

interface Outcome {
  code: number;
  text: string;
  dir: string;
  received: number;
}

/** A failure before the load: exit 2, one line naming memory and the phase, no request sent. */
function endedBeforeLoad(says: string) {
  return ({ code, text, received }: Outcome) => {
    assertEquals(code, 2, text);
    ok(text.includes(says), text);
    ok(!text.includes("    at "), `no stack: ${text}`);
    assertEquals(received, 0);
  };
}

Deno.test("a setup() that grows loadlab in a synchronous loop is ended past the memory limit: exit 2, named", () =>
  runGrowing("setup", endedBeforeLoad(`loadlab run: setup() ${PASSED}; no load was sent`)));

Deno.test("a setup() returning 400 MB under a 600 MB limit is refused before it is copied: exit 2, named", () =>
  runGrowing(
    "setup-value",
    endedBeforeLoad("setup() failed: its value holds at least "),
    // Built (400 MB) within the limit; copied, it reached 1.3 GB.
    { limitMb: 600, marginMb: 100 },
  ));

Deno.test("a top level that grows loadlab in a synchronous loop is refused past the memory limit: exit 2", () =>
  runGrowing(
    "top",
    endedBeforeLoad(`loadlab run: memory_phases.ts: its top level ${PASSED} as it was imported`),
  ));

Deno.test("a top level that grows only the load workers is ended past the memory limit before the load: exit 2", () =>
  runGrowing(
    "load-top",
    endedBeforeLoad(`loadlab run: memory_phases.ts: its top level ${PASSED} as the load workers imported it`),
  ));

Deno.test("a teardown() that grows loadlab is ended past the memory limit: a warning, the run's results kept", () =>
  runGrowing("teardown", async ({ code, text, dir, received }) => {
    assertEquals(code, 0, text);
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;
    assertEquals([run.requests, received], [4, 4]);
    assertEquals(run.teardownError, `teardown() ${PASSED}`);
    ok(text.includes(`warning: teardown() ${PASSED}`), text);
    ok((await Deno.stat(`${dir}/out/report.html`)).size > 0);
  }));
