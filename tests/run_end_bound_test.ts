/**
 * Every run ends within its duration, timeout, graceful stop and one second, whatever its session
 * script does: a session that never yields its isolate (a busy loop after one request) has its worker
 * ended one second past the graceful stop on both transports, the run flagged, the cut counted and its
 * rate over the time it had. Real worker isolates against the built-in target; loads are sub-second.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { withTarget } from "./helpers.ts";
import { runAttack } from "../runner/attack.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";

const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

const DURATION_MS = 300;
const TIMEOUT_MS = 1_000;
const GRACEFUL_STOP_MS = 200;
/** The bound every run keeps, counted from its start. */
const BOUND_MS = DURATION_MS + TIMEOUT_MS + GRACEFUL_STOP_MS + 1_000;

for (const transport of ["deno", "epoll"] as const) {
  Deno.test(`a session in a busy loop (${transport}): its worker ended within duration + timeout + graceful stop + 1 s`, () =>
    withTarget(async (url) => {
      let startedMs = Infinity;
      const run = await runAttack(
        parseAttackConfig({
          url,
          model: "connections",
          connections: 1,
          workers: 1,
          durationMs: DURATION_MS,
          timeoutMs: TIMEOUT_MS,
          gracefulStopMs: GRACEFUL_STOP_MS,
          intervalMs: 100,
          transport,
          script: { path: script("blocking.ts") },
        }),
        { onStart: () => startedMs = performance.now() },
      );
      const tookMs = performance.now() - startedMs;
      ok(tookMs < BOUND_MS, `ended ${Math.round(tookMs)} ms after its start (bound ${BOUND_MS} ms)`);
      assertEquals([run.incomplete, run.stuckWorkers, run.transport], [true, 1, transport]);
      ok((run.unfinished ?? 0) >= 1, `unfinished ${run.unfinished}: the cut session is counted`);
      // The rate is over the load it had: its 300 ms, not the ms between its last sample and the cut.
      ok(run.durationSec >= 0.29 && run.durationSec <= 0.31, `durationSec ${run.durationSec}`);
      assertEquals(
        runVerdict(run).flags.find((f) => f.kind === "incomplete")?.label,
        "incomplete: 1 worker stuck in blocking.ts",
      );
    }));
}
