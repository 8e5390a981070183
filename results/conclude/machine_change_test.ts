import assert from "node:assert/strict";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { RunResult } from "../mod.ts";
import { judgeNoise } from "./noise.ts";
import { busyMachineNote } from "./machine_change.ts";

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
const BUSY = { otherCores: 1.9, stallPct: 87, cores: 2 };

Deno.test("other processes' CPU alone neither blocks nor decides a verdict: 4x slower is beyond noise", () => {
  // A background build took 1.9 of the 2 cores during both runs; the runs' own threads recorded no wait.
  const verdict = judgeNoise("within-run", run("b", 500, 20, BUSY), run("a", 2_000, 5, BUSY), "p50");
  assert.ok("beyond" in verdict && verdict.beyond, JSON.stringify(verdict));
  assert.doesNotMatch(JSON.stringify(verdict), /other processes/);
});

Deno.test("busy machine note: said beside a run whose machine worked on other things, never on a quiet one", () => {
  assert.equal(busyMachineNote(run("b", 37_000, 0.29, BUSY)[0]), "other processes took 1.9 of the 2 cores");
  assert.equal(busyMachineNote(run("a", 72_000, 0.26, QUIET)[0]), "");
  assert.equal(busyMachineNote(run("a", 72_000, 0.26)[0]), "");
});
