import assert from "node:assert/strict";
import { formatRange, presetRows, renderPresetTable } from "./presets_cmd.ts";
import { findPreset } from "../scenarios/presets/mod.ts";
import { loadExperiment } from "../scenarios/load.ts";
import { estimateDurationMs, planExperiment } from "../scenarios/plan/plan.ts";

Deno.test("presets: quick durations are ranges that hold the measured wall-clock times", async () => {
  const rows = new Map((await presetRows()).map((r) => [r.name, r]));
  // The --quick times this estimate was calibrated on (2-core machine, idle to both cores busy):
  // cache-burst 64-71 s, frameworks 54-82 s.
  const cases: Array<[string, number, number]> = [
    ["cache-burst", 64_000, 71_000],
    ["frameworks", 54_000, 82_000],
  ];
  for (const [name, fastMs, slowMs] of cases) {
    const { lowMs, highMs } = rows.get(name)!.quickDuration;
    assert.ok(
      lowMs <= fastMs && slowMs <= highMs,
      `${name}: ${lowMs}-${highMs} ms holds ${fastMs}-${slowMs}`,
    );
    const loadsMs = estimateDurationMs(
      planExperiment(await loadExperiment(findPreset(name)!.text, { quick: true })),
    );
    assert.ok(lowMs > loadsMs, `${name}: more than the loads alone (${loadsMs} ms)`);
  }
  assert.equal(formatRange({ lowMs: 55_600, highMs: 88_400 }), "~56 s-1m 28s");
  assert.match(renderPresetTable([...rows.values()]), /preset:cache-burst .* ~\d+ s-1m \d\ds/);
});
