/**
 * @module
 * Large files that are still legal cost work in proportion to their size: the checks and the plan are
 * held to budgets on counted work (names listed, points encoded), not on time, so a loop that went
 * quadratic fails here on any machine, busy or not.
 */
import assert from "node:assert/strict";
import process from "node:process";
import { parseSource } from "../results/redact_results.ts";
import { loadExperiment, loadRunnable } from "./load.ts";
import { planExperiment } from "./plan/plan.ts";
import { checkExperiment } from "./schema/checks.ts";
import { experimentObject } from "./schema/object.ts";
import { parseDocument } from "./yaml_document.ts";

/** The file's fields before the cross-field checks run, as the schema hands them to the checks. */
async function fieldsOf(text: string) {
  const parsed = await parseDocument(text);
  assert.ok(parsed.ok);
  return experimentObject.parse(parsed.value);
}

const LOAD = "loads:\n  c: { model: connections, connections: 1, duration: 1s }\n";

Deno.test("checks: 2,000 targets have their names listed a few times, not once per target", async () => {
  const lines = ["name: many", "targets:"];
  for (let i = 0; i < 2_000; i++) lines.push(`  t${i}: { url: "http://127.0.0.1:9/" }`);
  lines.push("  p: { kind: proxy, upstream: t0 }");
  const exp = await fieldsOf(`${lines.join("\n")}\n${LOAD}`);
  let listed = 0;
  const targets = new Proxy(exp.targets, {
    ownKeys(target) {
      listed++;
      return Reflect.ownKeys(target);
    },
  });
  assert.deepEqual(checkExperiment({ ...exp, targets }), []);
  assert.ok(listed <= 10, `the target names were listed ${listed} times`);
});

Deno.test("checks: a chain of 300 proxies is walked once, and its cycle still named", async () => {
  const chain = (n: number, last: string) => {
    const lines = ["name: chain", "targets:", "  t0: { kind: builtin }"];
    for (let i = 1; i <= n; i++) {
      lines.push(`  p${i}: { kind: proxy, upstream: ${i === n ? last : `p${i + 1}`} }`);
    }
    return `${lines.join("\n")}\n${LOAD}`;
  };
  const exp = await fieldsOf(chain(300, "t0"));
  let read = 0;
  const targets = new Proxy(exp.targets, {
    get(target, key) {
      read++;
      return Reflect.get(target, key);
    },
  });
  assert.deepEqual(checkExperiment({ ...exp, targets }), []);
  assert.ok(read <= 300 * 10, `targets were read ${read} times`);
  await assert.rejects(() => loadExperiment(chain(3, "p1")), /upstreams form a cycle: p1 -> p2 -> p3 -> p1/);
});

Deno.test("plan: a sweep of 2,000 values encodes each point a few times, not once per other point", async () => {
  const values = Array.from({ length: 2_000 }, (_, i) => i).join(", ");
  const exp = await loadExperiment(
    `name: sweep\ntargets:\n  a: { kind: builtin }\n  b: { kind: builtin }\n${LOAD}` +
      `sweeps:\n  - parameter: query.ms\n    values: [${values}]\n`,
  );
  const stringify = JSON.stringify;
  let encoded = 0;
  JSON.stringify = ((...args: Parameters<typeof stringify>) => {
    encoded++;
    return stringify(...args);
  }) as typeof stringify;
  try {
    const plan = planExperiment(exp);
    assert.equal(plan.runs.length, 4_000);
    assert.deepEqual(plan.runs.slice(0, 3).map((r) => r.name), [
      "a/c/query.ms=0",
      "b/c/query.ms=0",
      "a/c/query.ms=1",
    ]);
  } finally {
    JSON.stringify = stringify;
  }
  assert.ok(encoded <= 4_000 * 10, `points were encoded ${encoded} times`);
});

/** Reads of `process.env` while `fn` runs: the `yaml` package's debug switches are read through it. */
async function envReads(fn: () => unknown): Promise<number> {
  const real = process.env;
  let reads = 0;
  process.env = new Proxy(real, {
    get(target, key) {
      reads++;
      return Reflect.get(target, key);
    },
  });
  try {
    await fn();
  } finally {
    process.env = real;
  }
  return reads;
}

Deno.test("load: a flow of 2,000 steps is parsed once, reading the environment a few times, not per token", async () => {
  const steps = Array.from({ length: 2_000 }, () => "      - ws: { send: hi }").join("\n");
  const text = `name: steps\ntargets:\n  t: { kind: builtin }\n${LOAD}flows:\n  - name: f\n    steps:\n` +
    `      - ws: { connect: /ws/echo }\n${steps}\n`;
  const loading = await envReads(() => loadRunnable(text, { preflight: false }));
  assert.ok(loading <= 10, `loading read the environment ${loading} times`);
  // Redacting its results takes the loader's parse: a second one would read the switches again.
  assert.equal(await envReads(() => parseSource(text)), 0);
  assert.equal((parseSource(text) as { flows: { steps: unknown[] }[] }).flows[0].steps.length, 2_001);
});

Deno.test("load: a flow past 10,000 steps is refused at its path with the limit and the fix", async () => {
  const flow = (n: number) =>
    `name: steps\ntargets:\n  t: { kind: builtin }\n${LOAD}flows:\n  - name: f\n    steps:\n` +
    Array.from({ length: n }, () => "      - get: /json").join("\n") + "\n";
  assert.equal((await loadExperiment(flow(10_000))).flows![0].steps.length, 10_000);
  await assert.rejects(
    () => loadExperiment(flow(10_001), { file: "x.yml" }),
    /flows\[0\]\.steps: a flow has at most 10,000 steps, found 10,001: write the part that repeats once/,
  );
});
