import assert from "node:assert/strict";
import { ExperimentError } from "./experiment_error.ts";
import { loadPlan, type LoadPlanOptions, loadRunnable } from "./load.ts";
import { parse } from "yaml";
import { findPreset } from "./presets/mod.ts";

const FILE = `
name: pipeline
targets:
  a: { url: "http://127.0.0.1:1" }
  b: { url: "http://127.0.0.1:2" }
loads:
  x: { model: connections, connections: 4, duration: 1s }
  y: { model: rate, rate: 10, duration: 1s }
`;

async function linesOf(fn: () => unknown): Promise<string[]> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof ExperimentError) return err.message.split("\n");
    throw err;
  }
  assert.fail("expected an ExperimentError");
}

Deno.test("loadPlan: planned, picked by --only, cut by --segment, fitted to the open-file limit", async () => {
  assert.deepEqual((await loadPlan(FILE)).runs.map((r) => r.name), ["a/x", "b/x", "a/y", "b/y"]);
  const picked = await loadPlan(FILE, { only: { target: ["b"] } });
  assert.deepEqual(picked.runs.map((r) => [r.name, r.index]), [["b/x", 0], ["b/y", 1]]);
  const shard = await loadPlan(FILE, { segment: { index: 1, count: 2 }, startAtEpochMs: 1_800_000_000_000 });
  assert.deepEqual(shard.runs[0].attack.segment, { index: 1, count: 2 });
  assert.equal(shard.runs[0].attack.startAtEpochMs, 1_800_000_000_000);
  // --max-memory-mb goes on every run's attack.
  assert.deepEqual((await loadPlan(FILE, { maxMemoryMb: 4096 })).runs.map((r) => r.attack.maxMemoryMb), [
    4096,
    4096,
    4096,
    4096,
  ]);
  const fitted = (await loadPlan(FILE, { openFileLimit: 256 })).runs.find((r) => r.load === "y")!;
  assert.equal((fitted.attack as { maxConnections?: number }).maxConnections, 206);
});

Deno.test("loadPlan: every step's problems at once, the file named where the file is at fault", async () => {
  // A run the engine refuses fails the file even when --only leaves it out.
  const broken = FILE.replace("connections: 4,", "connections: 2, workers: 4,");
  assert.deepEqual(await linesOf(() => loadPlan(broken, { file: "p.yaml", only: { load: ["y"] } })), [
    "p.yaml: loads.x.workers: workers (4) must not exceed connections (2) (in run a/x)",
  ]);
  assert.match(
    (await linesOf(() => loadPlan(FILE, { only: { target: ["c"] } })))[0],
    /^--only: no target named "c"/,
  );
  // A load's memory limit is checked by the engine's rule, at the load's key.
  const small = FILE.replace("connections: 4,", "connections: 4, maxMemoryMb: 100,");
  assert.match(
    (await linesOf(() => loadPlan(small, { file: "p.yaml" })))[0],
    /^p\.yaml: loads\.x\.maxMemoryMb: max memory must be >= 256 MB .* \(in run a\/x\)$/,
  );
  const big = FILE.replace("connections: 4,", "connections: 300,");
  const lines = await linesOf(() => loadPlan(big, { file: "p.yaml", openFileLimit: 256 }));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^p\.yaml: loads\.x\.connections: 300 needs 300 sockets .* \(in run a\/x\)$/);
});

Deno.test("loadPlan: preflight: false plans without this machine's checks", async () => {
  const missing = `
name: listed
targets: { app: { kind: external, command: no-such-program-here, url: "http://127.0.0.1:1" } }
loads: { x: { model: connections, connections: 1, duration: 1s } }
`;
  assert.match((await linesOf(() => loadPlan(missing)))[0], /^targets\.app\.command: /);
  assert.equal((await loadPlan(missing, { preflight: false })).runs.length, 1);
});

/** The experiment as the frameworks preset runs with `changes`, from `loadRunnable`. */
async function ranOf(changes: LoadPlanOptions): Promise<string | null> {
  return (await loadRunnable(findPreset("frameworks")!.text, { ...changes, preflight: false })).ranSource;
}

Deno.test("the experiment as a --quick run ran: the quick section merged in, not the file's full config", async () => {
  const ran = parse((await ranOf({ quick: true }))!);
  assert.equal(ran.loads.json.duration, "2s");
  assert.equal(ran.repeats, 3);
  assert.deepEqual(Object.keys(ran.loads), ["json", "fib"]);
  assert.equal(ran.targets.koa, undefined);
  assert.equal(ran.quick, undefined, "the quick: section itself is not part of what ran");
  const set = parse((await ranOf({ set: ["repeats=2"] }))!);
  assert.equal(set.repeats, 2);
  assert.equal(set.loads.json.duration, "10s");
  assert.equal(await ranOf({}), null, "an unchanged file is shown as written");
});

Deno.test("loadPlan: a problem the engine finds in a flow names the flow where the file has it", async () => {
  const flow = (indent: string) =>
    [
      "flows:",
      "  - name: f",
      "    steps:",
      "      - ws: { connect: /ws }",
      "      - ws: { send: hi, match: {}, timeout: 0.4ms }",
    ].map((l) => indent + l).join("\n") + "\n";
  const fix = "timeout: a ws step waits whole milliseconds: use e.g. 1ms (in run a/x)";
  // Flows of the file (top level), not of the load: the line named loads.x.flows[0], a key not there.
  const top = FILE.replace("  y: { model: rate, rate: 10, duration: 1s }\n", "") + flow("");
  assert.deepEqual(await linesOf(() => loadPlan(top, { file: "p.yaml", preflight: false })), [
    `p.yaml: flows[0].steps[1].ws.${fix}`,
  ]);
  const own = FILE.replace(
    "  x: { model: connections, connections: 4, duration: 1s }\n",
    "  x:\n" +
      "    model: connections\n    connections: 4\n    duration: 1s\n" + flow("    "),
  )
    .replace("  y: { model: rate, rate: 10, duration: 1s }\n", "");
  assert.deepEqual(await linesOf(() => loadPlan(own, { file: "p.yaml", preflight: false })), [
    `p.yaml: loads.x.flows[0].steps[1].ws.${fix}`,
  ]);
});

Deno.test("loadPlan: a search range end the engine refuses is named at search.range, before any load", async () => {
  // The upper end passed the file's checks, then the base run and probes ran and the engine refused a
  // probe at 1e308 (phases[0].ratePerSec, no file path) in the middle of the experiment.
  const file = FILE + 'search: { parameter: load.rate, load: y, range: [1, 1e308], slo: "p99 < 1s" }\n';
  assert.deepEqual(await linesOf(() => loadPlan(file, { file: "p.yaml", preflight: false })), [
    "p.yaml: search.range[1]: rate must be at most 10,000,000 requests per second (one load's cap) " +
    "(in the search's probe of a/y at 1e+308)",
  ]);
});
