import assert from "node:assert/strict";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";
import { judgeNoise } from "./noise.ts";
import { judgePair } from "./judged.ts";
import {
  busyMachineNote,
  explainedBound,
  judgeOwnWaits,
  type OwnWaits,
  ownWaits,
  settlingSharePct,
} from "./own_waits.ts";

/** Waits of a worker and a target: shares in %, the mean wait at a wake-up in ms. */
function waits(workerWaitPct: number, targetWaitPct: number | null, wakeWaitMs = 0): OwnWaits {
  return { workerWaitPct, targetWaitPct, wakeWaitMs, lagMs: 0, lateSends: 0, busiest: false };
}

/**
 * One closed run with a median of `medianMs`, whose load worker waited `workerPct` of every interval for a
 * core (`wakeMs` at each wake-up) and whose target's main thread waited `targetPct` (the same at a wake-up).
 */
function run(
  name: string,
  medianMs: number,
  workerPct?: number,
  targetPct?: number,
  wakeMs = 0.1,
): RunResult[] {
  // Ten connections, closed: the rate follows the latency.
  const r = makeRun({
    name,
    rps: 10_000 / medianMs,
    dist: { medianMs, sigma: 0.1 },
    durationSec: 6,
    telemetry: "process",
  });
  const intervals = r.intervals.map((iv) =>
    workerPct === undefined ? iv : { ...iv, generatorWaitPct: workerPct, wakeWaitMs: wakeMs }
  );
  const telemetry = (r.telemetry ?? []).map((t) => ({
    ...t,
    samples: t.samples.map((s) =>
      targetPct === undefined ? s : { ...s, runQueueWaitPct: targetPct, runQueueWakeWaitMs: wakeMs }
    ),
  }));
  return [{ ...r, intervals, telemetry }];
}

Deno.test("a wait share stretches a latency by 1 / (1 - share) and adds its waits; a rate moves with the share", () => {
  // The target waited half the time (the worker 20%): its part, and so the whole, takes up to twice as long;
  // two mean waits of 1 ms each way add 2 ms.
  assert.equal(explainedBound("p50", 10, 10, waits(20, 50, 1)), 22);
  // A tail meets four of them.
  assert.equal(explainedBound("p99", 10, 10, waits(20, 50, 1)), 24);
  // A closed rate moves as its mean latency does: 1000 req/s at 10 ms to 1000 / (2 + 2 / 10).
  assert.equal(Math.round(explainedBound("rps", 1000, 10, waits(50, 20, 1))), 455);
  // No waits, no room: the bound is the value itself.
  assert.equal(explainedBound("p99", 10, 10, waits(0, 0)), 10);
  // Past 90% waiting the stretch is capped at 10x rather than infinite.
  assert.equal(Math.round(explainedBound("p50", 10, 10, waits(95, 10))), 100);
});

Deno.test("the share that settles a latency gap is the one whose stretch no longer reaches it", () => {
  // 5 -> 20 ms with 1 ms added: a stretch under 19 / 5 needs waits under 73.7% of the time.
  assert.equal(Number(settlingSharePct(5, 20, waits(10, 10, 0.5), "p50")!.toFixed(1)), 73.7);
  // A gap the added waits alone cover is settled by no quieter share.
  assert.equal(settlingSharePct(5, 6, waits(10, 10, 1), "p50"), null);
});

Deno.test("own waits: the most any run of a side recorded, null without any record", () => {
  const side = [...run("a#1", 5, 10, 20, 0.5), ...run("a#2", 5, 30, 5, 0.2)];
  const w = ownWaits(side)!;
  assert.deepEqual([w.workerWaitPct, w.targetWaitPct, w.wakeWaitMs], [30, 20, 1]);
  assert.equal(ownWaits(run("old", 5)), null);
});

Deno.test("a difference past what the slower side's own waits can make is judged, with the margin said", () => {
  // 5 ms against 20 ms (a sleep four times as long) while the worker and target waited 10% each.
  const [fast, slow] = [run("base", 5, 10, 10), run("this", 20, 10, 10)];
  for (const metric of ["p50", "p99", "mean", "rps"] as const) {
    const verdict = judgeNoise("within-run", slow, fast, metric);
    assert.ok("beyond" in verdict && verdict.beyond, `${metric}: ${JSON.stringify(verdict)}`);
    assert.match(
      verdict.how,
      // A p99 is weighed against the busiest interval's waits, the other figures against the mean's.
      /beyond what the slower side's own waits \((in its busiest interval )?the load worker waited for a core 10% /,
    );
  }
});

Deno.test("a difference the slower side's own waits can make is not judged, with what would settle it", () => {
  // 5 ms against 8 ms while the slower run's target waited half the time for a core: up to 2x.
  const verdict = judgeNoise("within-run", run("this", 8, 30, 50), run("base", 5, 2, 2), "p50");
  assert.ok("notJudged" in verdict, JSON.stringify(verdict));
  assert.match(
    verdict.notJudged,
    /but the slower side's own waits \(the load worker waited for a core 30% of the time, the target's main thread 50%, 0\.2 ms at each wake-up\) move \S+ ms to \S+ ms at most, \S+ ms measured: judged with its threads waiting for a core under \d+(\.\d)?% of the time \(a quieter machine\) or with repeats \(repeats: 3\)$/,
  );
  // The faster side's waits explain nothing of the slower side's numbers: the same gap, waits swapped, is
  // judged.
  const swapped = judgeNoise("within-run", run("this", 8, 2, 2), run("base", 5, 30, 50), "p50");
  assert.ok("beyond" in swapped && swapped.beyond, JSON.stringify(swapped));
});

Deno.test("a pair within noise is the same however long its threads waited", () => {
  const verdict = judgeNoise("within-run", run("this", 5, 60, 30), run("base", 5, 60, 30), "p50");
  assert.ok("beyond" in verdict && !verdict.beyond, JSON.stringify(verdict));
});

Deno.test("judgeOwnWaits says nothing of success shares nor of a side that recorded no waits", () => {
  assert.equal(judgeOwnWaits(run("a", 5), run("b", 20), "p50", 5, 20), null);
  assert.equal(judgeOwnWaits(run("a", 5, 10, 10), run("b", 20, 10, 10), "success", 99, 90), null);
});

Deno.test("report --compare and the findings read the same rule: a gap the waits can make is not judged", () => {
  const pair = judgePair(run("base", 5, 2, 2)[0], run("this", 8, 30, 50)[0], "p50");
  assert.equal(pair.verdict, "unknown");
  assert.match(pair.notJudged ?? "", /but the slower side's own waits \(/);
  // Past what they can make, the pair is beyond noise.
  assert.equal(judgePair(run("base", 5, 2, 2)[0], run("this", 20, 10, 10)[0], "p50").verdict, "beyond-noise");
});

/** One run of `variant` at `rps` with a median of `medianMs`, and what the rest of the host did meanwhile. */
function hostRun(
  variant: string,
  rps: number,
  medianMs: number,
  hostCpu?: RunResult["hostCpu"],
): RunResult[] {
  const r = makeRun({
    name: `${variant}/closed`,
    variant,
    load: "closed",
    rps,
    dist: { medianMs, sigma: 0.2 },
  });
  return [hostCpu ? { ...r, hostCpu } : r];
}

const QUIET = { otherCores: 0, stallPct: 7, cores: 2 };
const BUSY = { otherCores: 1.9, stallPct: 87, cores: 2 };

Deno.test("other processes' CPU alone neither blocks nor decides a verdict: 4x slower is beyond noise", () => {
  // A background build took 1.9 of the 2 cores during both runs; the runs' own threads recorded no wait.
  const verdict = judgeNoise("within-run", hostRun("b", 500, 20, BUSY), hostRun("a", 2_000, 5, BUSY), "p50");
  assert.ok("beyond" in verdict && verdict.beyond, JSON.stringify(verdict));
  assert.doesNotMatch(JSON.stringify(verdict), /other processes/);
});

Deno.test("busy machine note: said beside a run whose machine worked on other things, never on a quiet one", () => {
  assert.equal(
    busyMachineNote(hostRun("b", 37_000, 0.29, BUSY)[0]),
    "other processes took 1.9 of the 2 cores",
  );
  assert.equal(busyMachineNote(hostRun("a", 72_000, 0.26, QUIET)[0]), "");
  assert.equal(busyMachineNote(hostRun("a", 72_000, 0.26)[0]), "");
});

Deno.test("over repeats too, a gap the slower side's own waits can make is not judged: they held every repeat", () => {
  // Three repeats a side, the slower side's target waiting half the time in each: the repeats' spread holds
  // nothing of a load that lasted the whole invocation.
  const side = (name: string, ms: number, pct: number) =>
    [0, 1, 2].flatMap((i) => run(`${name}#${i}`, ms + i * 0.1, pct, pct));
  const verdict = judgeNoise("repeats", side("this", 8, 50), side("base", 5, 2), "p50");
  assert.ok("notJudged" in verdict, JSON.stringify(verdict));
  assert.match(
    verdict.notJudged,
    /^by Welch's t-test over repeats, .*, but the slower side's own waits \(.*\) move .* at most, \S+ ms measured: judged with its threads waiting for a core under [\d.]+% of the time \(a quieter machine\)$/,
  );
  const swapped = judgeNoise("repeats", side("this", 8, 2), side("base", 5, 50), "p50");
  assert.ok("beyond" in swapped && swapped.beyond, JSON.stringify(swapped));
});
