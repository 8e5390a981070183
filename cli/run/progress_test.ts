import assert from "node:assert/strict";
import { makeCpuSleepQuick, makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { exampleRuntimeLines, profileNotes, runProgress, summaryLine } from "./progress.ts";
import { findPreset } from "../../scenarios/presets/mod.ts";
import { loadExperiment } from "../../scenarios/load.ts";
import { planExperiment } from "../../scenarios/plan/plan.ts";

Deno.test("a run's progress line puts requested, sent and dropped beside achieved, and its verdict last", () => {
  const [bound, , dropped] = makeCpuSleepQuick().runs;
  const line = summaryLine(dropped);
  assert.match(
    line,
    /^single\/cpuTime\/query\.ms=10 {2}94\.0 of 20,000 req\/s requested, sent 94, dropped 29,839 \(99\.7%\)/,
  );
  assert.match(line, /success 100\.00% of sent {2}\[dropped 99\.7%\]$/);
  assert.match(summaryLine(bound), /\[generator-bound\]$/);
  const closed = makeSeed000(1, 5).runs[0];
  assert.match(summaryLine({ ...closed, targetRps: null, model: "connections" }), / req\/s {2}p50 .*\[ok\]$/);
  const profiled = { ...closed, profiles: [{ process: "target", file: "profiles/a.target.cpuprofile" }] };
  assert.match(summaryLine(profiled), /\[ok\] {2}\(profiled\)$/);
});

Deno.test("a profile not taken, or qualified, is said on the terminal: the wrong process, mostly idle", () => {
  const run = makeSeed000(1, 5).runs[0];
  const wrong = "the inspector on 127.0.0.1:9229 belongs to process 41, not to the target's process 40 " +
    "(another process took the port before the target bound it): not profiled";
  const profiles = [
    { process: "target", error: wrong },
    {
      process: "target#2\u001b[31m",
      file: "p.cpuprofile",
      warning: "profile mostly idle (99.0% of 1.0 s idle)",
    },
    { process: "balancer", file: "b.cpuprofile" },
  ];
  assert.deepEqual(profileNotes({ ...run, profiles }), [
    `CPU profile of target: ${wrong}`,
    "CPU profile of target#2: profile mostly idle (99.0% of 1.0 s idle)",
  ]);
  assert.deepEqual(profileNotes(run), []);
});

Deno.test("a run of several endpoints prints its table under its line; a probe and quiet do not", async () => {
  const file = new URL("../../tests/fixtures/results_v3_endpoints.json", import.meta.url);
  const run = JSON.parse(await Deno.readTextFile(file)).runs[0];
  const printed = (opts: { quiet?: boolean }, result: typeof run) => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (text: string) => lines.push(...text.split("\n"));
    try {
      runProgress({ live: { done() {} }, terminal: false, everyOne: "out/x/report.html", ...opts })
        .onRunEnd!(result, undefined as never);
    } finally {
      console.log = log;
    }
    return lines;
  };
  const lines = printed({}, run);
  assert.match(lines[1], /^ {2}Endpoints \(busiest first;/);
  assert.match(lines[3], /^ {4}GET \/json {2,}150 /);
  assert.equal(printed({ quiet: true }, run).some((l) => l.includes("Endpoints (")), false);
  assert.equal(printed({}, { ...run, probe: true }).some((l) => l.includes("Endpoints (")), false);
});

const frameworks = findPreset("frameworks")!.text;

Deno.test("example apps without their packages: the runtime that serves them and the install command", async () => {
  // A copy of examples/ without node_modules, as in a fresh checkout.
  const dir = await Deno.makeTempDir();
  try {
    for (const app of ["express", "fastify"]) {
      await Deno.mkdir(`${dir}/${app}`);
      await Deno.writeTextFile(`${dir}/${app}/server.js`, "");
    }
    const plan = planExperiment(await loadExperiment(frameworks, { quick: true }));
    const lines = exampleRuntimeLines(plan, new URL(`file://${dir}/`));
    assert.equal(lines.length, 2, lines.join("\n"));
    assert.match(lines[0], /^example apps express, fastify: deno \S+ \(npm compat\)$/);
    assert.match(
      lines[1],
      /express, fastify fell back to Deno's npm compatibility: .*'npm install --prefix examples'/,
    );
    const builtinOnly = planExperiment(await loadExperiment(findPreset("cpu-sleep")!.text, { quick: true }));
    assert.deepEqual(exampleRuntimeLines(builtinOnly, new URL(`file://${dir}/`)), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
