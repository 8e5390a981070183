/**
 * `script:` in an experiment file: the path is read relative to the file, every load without a mix of
 * its own runs it (sweeps and repeats unchanged), a load with its own mix keeps its requests.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { loadPlan } from "./load.ts";

const FILE = "/studies/shop/exp.yaml";

function plan(extra: string) {
  const text = `name: s\ntargets:\n  app: { url: "http://127.0.0.1:9" }\nscript: ./session.ts\n${extra}`;
  return loadPlan(text, { file: FILE, preflight: false });
}

Deno.test("a script runs in every load without its own mix, sweeps and repeats unchanged", async () => {
  const p = await plan(
    "loads:\n  a: { model: connections, connections: 2, duration: 1s }\n" +
      "  b: { model: connections, connections: 2, duration: 1s, requests: [/json] }\n" +
      "sweeps:\n  - { parameter: load.connections, values: [2, 4], loads: [a] }\nrepeats: 2\n",
  );
  const scripted = p.runs.filter((r) => r.attack.script !== undefined);
  const own = p.runs.filter((r) => r.attack.script === undefined);
  assertEquals(scripted.length, 4);
  assertEquals(own.length, 2);
  for (const r of scripted) assertEquals(r.attack.script?.path, "/studies/shop/session.ts");
  assertEquals(
    [...new Set(scripted.map((r) => "connections" in r.attack ? r.attack.connections : 0))].sort(),
    [2, 4],
  );
  for (const r of own) ok(r.attack.requestMix?.[0].path === "/json");
});
