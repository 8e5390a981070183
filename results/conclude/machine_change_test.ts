import assert from "node:assert/strict";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";
import { judgeNoise } from "./noise.ts";
import { busyMachineNote, machineChangeBlocker } from "./machine_change.ts";

/** One run of `variant` at `rps` with a median of `medianMs`, and what the rest of the host did meanwhile. */
function run(variant: string, rps: number, medianMs: number, hostCpu?: RunResult["hostCpu"]): RunResult[] {
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
const BUSY = { otherCores: 1.1, stallPct: 70, cores: 2 };

Deno.test("machine change: twins a busy machine halved are not judged, by any noise rule of one run a side", () => {
  const [a, b] = [run("a", 72_000, 0.26, QUIET), run("b", 37_000, 0.29, BUSY)];
  for (const metric of ["rps", "p50", "p99", "mean"] as const) {
    const verdict = judgeNoise("within-run", b, a, metric);
    assert.ok("notJudged" in verdict, `${metric}: ${JSON.stringify(verdict)}`);
    assert.match(
      verdict.notJudged,
      /other processes took 1\.1 of the 2 cores during b\/closed, 0 during a\/closed \(waits for a core 70% of the time, 7%\), enough alone for a 2\.2x difference: run repeats/,
    );
  }
  // Busy alike during both (the suite's other files): the work that comes and goes is not the targets'.
  const both = judgeNoise("within-run", run("b", 46_000, 0.3, BUSY), run("a", 71_000, 0.26, BUSY), "rps");
  assert.ok("notJudged" in both && /took 1\.1 of the 2 cores/.test(both.notJudged), JSON.stringify(both));
  // Success shares are a proportion over the requests: their own test, whatever the machine did.
  assert.ok(!("notJudged" in judgeNoise("within-run", b, a, "success")));
});

Deno.test("machine change: a difference beyond what the change can make is still the targets'", () => {
  // 10x the rate, and 900 ms more latency: more than 2.2x and 28 ms of scheduler waits.
  assert.equal(machineChangeBlocker(run("a", 5_000, 1, QUIET), run("b", 500, 900, BUSY), "rps"), null);
  assert.equal(machineChangeBlocker(run("a", 5_000, 1, QUIET), run("b", 500, 900, BUSY), "p50"), null);
  // 10x the p99 of a fast page is a few ms of waiting for a core: not the target's.
  assert.ok(machineChangeBlocker(run("a", 72_000, 0.3, QUIET), run("b", 37_000, 3, BUSY), "p99"));
});

Deno.test("machine change: no change, a small one, or one without more waiting leave the noise rule alone", () => {
  const quiet = run("a", 72_000, 0.26, QUIET);
  assert.equal(
    machineChangeBlocker(quiet, run("b", 60_000, 0.3, { ...QUIET, otherCores: 0.2 }), "rps"),
    null,
  );
  // Another server on this host used a core, yet nothing waited for one: the machine had room.
  assert.equal(machineChangeBlocker(quiet, run("b", 60_000, 0.3, { ...QUIET, otherCores: 1 }), "rps"), null);
  // Older files and other systems record nothing: nothing to judge the machine by.
  assert.equal(machineChangeBlocker(run("a", 72_000, 0.26), run("b", 37_000, 0.29, BUSY), "rps"), null);
  // Without pressure accounting, other processes' CPU alone decides.
  const noPsi = { otherCores: 1.1, cores: 2 };
  assert.ok(
    machineChangeBlocker(
      run("a", 72_000, 0.26, { otherCores: 0, cores: 2 }),
      run("b", 37_000, 0.29, noPsi),
      "rps",
    ),
  );
});

Deno.test("busy machine note: said beside a run whose machine worked on other things, never on a quiet one", () => {
  assert.equal(busyMachineNote(run("b", 37_000, 0.29, BUSY)[0]), "other processes took 1.1 of the 2 cores");
  assert.equal(busyMachineNote(run("a", 72_000, 0.26, QUIET)[0]), "");
  assert.equal(busyMachineNote(run("a", 72_000, 0.26)[0]), "");
});
