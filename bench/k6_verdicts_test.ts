/**
 * The verdict bench's comparison: a row is "same" only when exit codes, every threshold, each check's counts
 * (within 10%) and the servers reached all agree; checks in groups are keyed by their group's name.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { collectChecks, compareRuns, type ToolRun } from "./k6_verdicts.ts";

const run = (over: Partial<ToolRun>): ToolRun => ({
  code: 0,
  thresholds: new Map([["checks: rate>0.9", true]]),
  checks: new Map([["is 200", [100, 0]]]),
  origins: [10, 0],
  note: "",
  ...over,
});

Deno.test("a row is the same only when every part agrees; checks within 10%", () => {
  assertEquals(compareRuns("a.js", run({}), run({ checks: new Map([["is 200", [95, 0]]]) })).at(-1), "same");
  const row = compareRuns(
    "a.js",
    run({ code: 99 }),
    run({
      code: 1,
      thresholds: new Map([["checks: rate>0.9", false]]),
      checks: new Map([["is 200", [80, 0]]]),
      origins: [0, 10],
    }),
  );
  assertEquals(row, [
    "a.js",
    "99/1",
    "checks: rate>0.9 k6 held, ll failed",
    "is 200 k6 100/0, ll 80/0",
    "10+0",
    "0+10",
    "differs",
  ]);
  const refused = compareRuns("a.js", run({}), run({ code: 2, thresholds: null, note: "refused: why" }));
  assertEquals([refused[2], refused.at(-1)], ["ll: no export", "differs: refused: why"]);
  const none = run({ code: 104, thresholds: null });
  const both = compareRuns("a.js", none, none);
  assertEquals([both[2], both.at(-1)], ["same (neither judged)", "same"]);
  // k6 writes no export when nothing has a sample nor a threshold: loadlab's, judging none, is the same.
  const empty = run({ code: 108, thresholds: new Map(), checks: new Map(), origins: [0, 0] });
  assertEquals(compareRuns("a.js", { ...empty, thresholds: null }, empty)[2], "same (neither judged)");
  assertEquals(compareRuns("a.js", { ...empty, thresholds: null }, run({ code: 108 }))[2], "k6: no export");
});

Deno.test("by duration, a check's counts may differ but not its share of passes nor whether it failed", () => {
  const counted = (pass: number, fail: number) => run({ checks: new Map([["ok", [pass, fail]]]) });
  assertEquals(compareRuns("d.js", counted(20, 0), counted(6, 0), true)[3], "same (1, by duration)");
  assertEquals(compareRuns("d.js", counted(20, 0), counted(6, 0)).at(-1), "differs");
  assertEquals(compareRuns("d.js", counted(0, 7), counted(0, 13), true).at(-1), "same");
  // A check that failed once where k6's never did, or a share 20 points off, still differs.
  assertEquals(compareRuns("d.js", counted(20, 0), counted(12, 1), true).at(-1), "differs");
  assertEquals(compareRuns("d.js", counted(10, 10), counted(6, 14), true).at(-1), "differs");
  assertEquals(compareRuns("d.js", counted(10, 0), counted(0, 0), true).at(-1), "differs");
});

Deno.test("checks of the export's root group and its groups, by group name", () => {
  const into = new Map<string, [number, number]>();
  collectChecks(
    {
      checks: { top: { name: "top", passes: 1, fails: 0 } },
      groups: { api: { name: "api", checks: { ok: { name: "ok", passes: 2, fails: 1 } } } as never },
    },
    "",
    into,
  );
  assertEquals([...into], [["top", [1, 0]], ["api / ok", [2, 1]]]);
});
