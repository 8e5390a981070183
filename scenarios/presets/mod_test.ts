import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { findPreset, PRESETS } from "./mod.ts";
import { loadExperiment } from "../load.ts";
import { estimateDurationMs, planExperiment } from "../plan/plan.ts";

Deno.test("presets: every shipped file validates and plans, in full and quick; quick is shorter", async () => {
  assertEquals(new Set(PRESETS.map((p) => p.name)).size, PRESETS.length);
  for (const preset of PRESETS) {
    const file = `preset:${preset.name}`;
    const full = await loadExperiment(preset.text, { file });
    const quick = await loadExperiment(preset.text, { file, quick: true });
    // The default output folder is out/<experiment name>: the same name as on the command line.
    assertEquals(full.name, preset.name);
    const [fullMs, quickMs] = [full, quick].map((e) => estimateDurationMs(planExperiment(e)));
    ok(planExperiment(full).runs.length > 0, preset.name);
    ok(quickMs < fullMs, `${preset.name}: quick ${quickMs} ms < full ${fullMs} ms`);
    if (full.study) ok(full.study.startsWith("docs/studies/"), full.study);
  }
});

Deno.test("presets: the demo runs each load model once, quick under a quarter of a minute", async () => {
  const demo = findPreset("demo")!;
  const plan = planExperiment(await loadExperiment(demo.text, { quick: true }));
  assertEquals(plan.runs.map((r) => r.attack.model), ["connections", "rate", "throughput", "count"]);
  ok(estimateDurationMs(plan) < 15_000);
  assertEquals(findPreset("nope"), undefined);
});
