/**
 * `attack` and `run` start their load worker isolate early (a script worker's for a script), unless a flag
 * asks for limits their run could not take; nothing heavy loads before that start, attack loads no gRPC
 * or zip library, and neither loads the YAML package for a k6 script or a URL.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { startEarly } from "./early_start.ts";
import { takeEarlyWorker } from "../runner/worker/load_worker.ts";
import { memoryLimitMbBesideRuns, memoryLimitMbOf } from "../runner/worker/memory_limit.ts";
import { takeEarlyHost } from "../runner/script/host/host.ts";
import { staticImports } from "../tests/import_graph.ts";
import { parseRunArgs } from "./run/args.ts";
import { readRunPlanOrStop } from "./run/source.ts";
import { loadedYamlPackage } from "../validation/yaml_package.ts";

function startedFor(command: string, args: string[], youngMb = 12): boolean {
  return started(command, args, youngMb).worker;
}

/** Whether the early start began a load worker isolate of `youngMb` and a script host isolate; both ended. */
function started(command: string, args: string[], youngMb = 12) {
  startEarly(command, args);
  const early = takeEarlyWorker(youngMb, memoryLimitMbOf({ workers: 1 }));
  early?.worker.terminate();
  const host = takeEarlyHost(memoryLimitMbBesideRuns());
  host?.worker.terminate();
  return { worker: early !== null, host: host !== null };
}

Deno.test("run of a k6 script reads its plan without importing the YAML package, nor does attack", async () => {
  for (const entry of ["cli/run/command.ts", "cli/attack/command.ts"]) {
    const loaded = await staticImports(new URL("../", import.meta.url), entry);
    assertEquals(loaded.filter((s) => s.startsWith("npm:yaml")), [], entry);
  }
  const script = await Deno.makeTempFile({ suffix: ".js" });
  await Deno.writeTextFile(
    script,
    'import http from "k6/http";\nexport default () => http.get("http://127.0.0.1:1/");\n',
  );
  const interrupt = {
    signal: new AbortController().signal,
    exitCode: () => 130,
    beforeQuit() {},
    dispose() {},
  };
  const read = await readRunPlanOrStop("run", await parseRunArgs([script, "--iterations", "1"]), interrupt);
  assertEquals(typeof read === "number" ? read : read.plan.runs.length, 1);
  assertEquals(loadedYamlPackage(), undefined);
  await Deno.remove(script);
});

Deno.test("attack starts the isolate early unless --workers or --max-memory-mb asks for other limits", () => {
  assertEquals(startedFor("attack", ["http://127.0.0.1:1/", "-n", "1"]), true);
  for (const flag of [["-w", "2"], ["-w2"], ["--workers=2"], ["--cpus", "2"], ["--max-memory-mb", "900"]]) {
    assertEquals(startedFor("attack", ["http://127.0.0.1:1/", ...flag]), false, flag.join(" "));
  }
  assertEquals(startedFor("serve", []), false);
});

Deno.test("run starts a script worker's isolate early for a script, a plain one for an experiment file", () => {
  assertEquals(startedFor("run", ["one.ts", "--iterations", "1"], 72), true);
  assertEquals(startedFor("run", ["k6.js"], 72), true);
  assertEquals(startedFor("run", ["locustfile.py"], 72), true);
  assertEquals(startedFor("run", ["exp.yaml"], 72), false);
  assertEquals(startedFor("run", ["exp.yaml"], 12), true);
  assertEquals(startedFor("run", ["preset:frameworks", "--workers", "2"], 12), false);
  assertEquals(startedFor("run", ["one.ts", "-w", "2"], 72), false);
});

Deno.test("run starts the isolate a script's options are read in early, for a script only", () => {
  for (const script of ["one.ts", "k6.js", "locustfile.py"]) {
    assertEquals(started("run", [script], 72).host, true);
  }
  assertEquals(started("run", ["exp.yaml"]).host, false);
  assertEquals(started("attack", ["http://127.0.0.1:1/"]).host, false);
  assertEquals(started("run", ["one.ts", "--max-memory-mb", "900"], 72).host, false);
});

Deno.test("the early start loads no npm package before the isolate spawns", async () => {
  const loaded = await staticImports(new URL("../", import.meta.url), "cli/early_start.ts");
  assertEquals(loaded.filter((s) => s.startsWith("npm:")), []);
});

Deno.test("main.ts loads no npm package before the early start (zod waits for the command)", async () => {
  const loaded = await staticImports(new URL("../", import.meta.url), "main.ts");
  assertEquals(loaded.filter((s) => s.startsWith("npm:")), []);
});

Deno.test("a load worker isolate loads no zod: the models and the specs it reads are plain", async () => {
  const loaded = await staticImports(new URL("../", import.meta.url), "runner/worker/worker.ts");
  assertEquals(loaded.filter((s) => s.startsWith("npm:zod")), []);
});

Deno.test("attack loads protobuf.js and fflate only for a gRPC run or a zipped baseline", async () => {
  const loaded = await staticImports(new URL("../", import.meta.url), "cli/attack/command.ts");
  assertEquals(loaded.filter((s) => /^npm:.*(protobufjs|fflate)/.test(s)), []);
});
