import assert from "node:assert/strict";
import { exampleRuntimeLines } from "./notes.ts";
import { findPreset } from "../../scenarios/presets/mod.ts";
import { loadExperiment } from "../../scenarios/load.ts";
import { planExperiment } from "../../scenarios/plan/plan.ts";

const frameworks = findPreset("frameworks")!.text;

Deno.test("example apps without their packages: the runtime that serves them and the install command", async () => {
  // A copy of examples/ without node_modules, as in a fresh checkout.
  const dir = await Deno.makeTempDir();
  try {
    for (const app of ["express", "fastify"]) {
      await Deno.mkdir(`${dir}/${app}`);
      await Deno.writeTextFile(`${dir}/${app}/server.js`, "");
    }
    const plan = planExperiment(loadExperiment(frameworks, { quick: true }));
    const lines = exampleRuntimeLines(plan, new URL(`file://${dir}/`));
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[0], /^example apps express, fastify: deno \S+ \(npm compat\)$/);
    assert.match(
      lines[1],
      /express, fastify fell back to Deno's npm compatibility: .*'npm install --prefix examples'/,
    );
    const builtinOnly = planExperiment(loadExperiment(findPreset("cpu-sleep")!.text, { quick: true }));
    assert.deepEqual(exampleRuntimeLines(builtinOnly, new URL(`file://${dir}/`)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
