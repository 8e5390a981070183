import assert from "node:assert/strict";
import { parse } from "yaml";
import { exampleRuntimeLines, ranSource } from "./run_notes.ts";
import { findPreset } from "../scenarios/presets/mod.ts";
import { loadExperiment } from "../scenarios/load.ts";
import { planExperiment } from "../scenarios/plan.ts";

const frameworks = findPreset("frameworks")!.text;

Deno.test("the experiment as a --quick run ran: the quick section merged in, not the file's full config", () => {
  const ran = parse(ranSource(frameworks, { quick: true })!);
  assert.equal(ran.loads.json.duration, "2s");
  assert.equal(ran.repeats, 3);
  assert.deepEqual(Object.keys(ran.loads), ["json", "fib"]);
  assert.equal(ran.targets.koa, undefined);
  assert.equal(ran.quick, undefined, "the quick: section itself is not part of what ran");
  const set = parse(ranSource(frameworks, { set: ["repeats=2"] })!);
  assert.equal(set.repeats, 2);
  assert.equal(set.loads.json.duration, "10s");
  assert.equal(ranSource(frameworks, {}), null, "an unchanged file is shown as written");
});

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
