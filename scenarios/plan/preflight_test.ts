import assert from "node:assert/strict";
import { loadExperiment } from "../load.ts";
import { planExperiment } from "./plan.ts";
import { ExperimentError } from "../experiment_error.ts";
import { preflightPlan } from "./preflight.ts";

const plan = async (loads: string) =>
  planExperiment(
    await loadExperiment(`
name: sockets
targets:
  t: { url: "http://127.0.0.1:1" }
loads:
${loads}
`),
  );

function issuesOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ExperimentError) return err.message.split("\n");
    throw err;
  }
  return [];
}

Deno.test("preflightPlan: a load asking more sockets than the open-file limit is bad input", async () => {
  const planned = await plan(`
  big: { model: connections, connections: 300, duration: 1s }
  open: { model: rate, rate: 10, duration: 1s, maxConnections: 1000 }
  small: { model: connections, connections: 10, duration: 1s }`);
  const lines = issuesOf(() =>
    preflightPlan(
      planned,
      { file: "s.yaml", openFileLimit: 256 },
    )
  );
  assert.deepEqual(lines, [
    "s.yaml: loads.big.connections: 300 needs 300 sockets but the open-file limit is 256 (50 kept for " +
    "the runtime); raise it (ulimit -n 512) or use at most connections: 206 (in run t/big)",
    "s.yaml: loads.open.maxConnections: 1000 needs 1000 sockets but the open-file limit is 256 (50 kept " +
    "for the runtime); raise it (ulimit -n 2048) or use at most maxConnections: 206 (in run t/open)",
  ]);
});

Deno.test("preflightPlan: an open load's default pool is fitted to the limit; no limit, no change", async () => {
  const p = await plan("  open: { model: rate, rate: 10, duration: 1s }");
  const fitted = preflightPlan(p, { openFileLimit: 256 });
  assert.equal((fitted.runs[0].attack as { maxConnections?: number }).maxConnections, 206);
  assert.equal(preflightPlan(p, { openFileLimit: null }), p);
  assert.equal(preflightPlan(p, { openFileLimit: 100_000 }).runs[0], p.runs[0]);
  const searched = planExperiment(
    await loadExperiment(`
name: search
targets: { t: { url: "http://127.0.0.1:1" } }
loads: { open: { model: rate, rate: 10, duration: 1s } }
search: { parameter: load.rate, range: [10, 5000], slo: "p99 < 1s" }
`),
  );
  const probe = preflightPlan(searched, { openFileLimit: 256 }).searches[0].base.attack;
  assert.equal((probe as { maxConnections?: number }).maxConnections, 206, "search probes too");
});

Deno.test("preflightPlan: a capacity search over connections is checked at the top of its range", async () => {
  const p = planExperiment(
    await loadExperiment(`
name: search
targets: { t: { url: "http://127.0.0.1:1" } }
loads: { c: { model: connections, connections: 1, duration: 1s } }
search: { parameter: load.connections, range: [1, 5000], slo: "p99 < 1s" }
`),
  );
  const lines = issuesOf(() => preflightPlan(p, { openFileLimit: 1024 }));
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^search\.range: load\.connections up to 5000 needs 5000 sockets .*ulimit -n 8192/);
});

Deno.test("preflightPlan: a ramp names its stage, and a crowd past its source addresses' ports is bad input", async () => {
  const planned = await plan(`
  ramp: { model: connections, stages: [{ duration: 1s, target: 10 }, { duration: 1s, target: 300 }] }
  crowd: { model: connections, connections: 200, duration: 1s }
  spread: { model: connections, connections: 200, duration: 1s, sourceAddresses: 127.0.0.1-127.0.0.2 }
  foreign: { model: connections, connections: 2, duration: 1s, sourceAddresses: [192.0.2.1] }`);
  const lines = issuesOf(() =>
    preflightPlan(
      planned,
      { file: "s.yaml", openFileLimit: 256, localPorts: 200 },
    )
  );
  assert.equal(lines.length, 3, lines.join("\n"));
  assert.match(
    lines[0],
    /^s\.yaml: loads\.ramp\.stages\[1\]: 300 needs 300 sockets .* or use at most a stage target of 206/,
  );
  assert.match(
    lines[1],
    /^s\.yaml: loads\.crowd\.connections: 200 needs 200 connections to one address but 1 source address opens 100 quickly each .*--source-addresses 127\.0\.0\.1-127\.0\.0\.2/,
  );
  assert.match(lines[2], /^s\.yaml: loads\.foreign\.sourceAddresses: cannot send from 192\.0\.2\.1: /);
});
