import assert from "node:assert/strict";
import { instanceCells, instanceGroups, type InstanceRun, scalingCaveat } from "./instances.ts";

function run(variant: string, load: string, ms: number | null, rps: number, instances?: number): InstanceRun {
  return {
    name: `${variant}/${load}${ms === null ? "" : `/query.ms=${ms}`}`,
    variant,
    load,
    ...(ms === null ? {} : { sweep: { parameter: "query.ms", value: ms } }),
    rps,
    targetInfo: { kind: "builtin", ...(instances === undefined ? {} : { instances }) },
  };
}

Deno.test("instanceGroups: one group per load, variants with their instances, none without a recorded count", () => {
  const runs = [
    run("single", "cpuTime", 1, 900),
    run("cluster", "cpuTime", 1, 2600, 3),
    run("single", "cpuTime", 10, 95),
    run("cluster", "cpuTime", 10, 280, 3),
    run("single", "static", null, 40000),
    run("cluster", "static", null, 60000, 3),
  ];
  const groups = instanceGroups(runs)!;
  assert.deepEqual(groups.map((g) => [g.load, g.parameter, g.values]), [
    ["cpuTime", "query.ms", [1, 10]],
    ["static", null, [null]],
  ]);
  assert.deepEqual(groups[0].variants.map((v) => [v.variant, v.instances, v.rps]), [
    ["single", 1, [900, 95]],
    ["cluster", 3, [2600, 280]],
  ]);
  const cells = instanceCells(groups[0], ["single", "cluster"]);
  assert.deepEqual(cells[1].map((c) => c.text), [
    "cpuTime",
    "query.ms=10",
    ...["–", "–", "–", "95", "ok"],
    ...["–", "–", "–", "280", "ok"],
    "2.95×",
  ]);
  // Nothing recorded (targets without `instances`): no section.
  assert.equal(instanceGroups(runs.map((r) => ({ ...r, targetInfo: { kind: "builtin" } }))), null);
});

Deno.test("instanceCells: an open-model point shows requested, sent, dropped and achieved beside its verdict", () => {
  const open = (variant: string, rps: number, dropped: number, verdict: string, instances?: number) => ({
    ...run(variant, "cpuTime", 10, rps, instances),
    verdict,
    sends: {
      requestedRps: 20000,
      sent: rps,
      dropped,
      droppedShare: dropped / (rps + dropped),
      aboveRequested: false,
    },
  });
  const groups = instanceGroups([
    open("single", 91, 29_839, "dropped 99.7%"),
    open("cluster", 280, 29_700, "dropped 99.1%", 3),
  ])!;
  const cells = instanceCells(groups[0], ["single", "cluster"]);
  assert.deepEqual(cells[0].map((c) => c.text), [
    "cpuTime",
    "query.ms=10",
    ...["20,000", "91", "29,839 (99.70%)", "91", "dropped 99.7%"],
    ...["20,000", "280", "29,700 (99.07%)", "280", "dropped 99.1%"],
    "3.08×",
  ]);
});

Deno.test("scalingCaveat: shown below 4 cores or with one instance everywhere, not on 8 cores with 7", () => {
  const groups = instanceGroups([run("single", "s", 1, 10), run("cluster", "s", 1, 10, 1)])!;
  assert.match(scalingCaveat(2, groups)!, /2 cores .* cannot show/);
  assert.match(scalingCaveat(8, groups)!, /most instances any variant ran is 1/);
  const seven = instanceGroups([run("single", "s", 1, 10), run("cluster", "s", 1, 60, 7)])!;
  assert.equal(scalingCaveat(8, seven), null);
  assert.match(scalingCaveat(3, seven)!, /3 cores/);
});
