import assert from "node:assert/strict";
import { loadExperiment } from "../load.ts";
import { estimateDurationMs, planExperiment } from "./plan.ts";
import { applyParameter } from "./attack.ts";
import { redactedToken } from "../../results/redact.ts";

const TWO_BY_TWO = `
name: t
targets:
  a: { kind: builtin }
  b: { kind: builtin, instances: 2 }
loads:
  x: { model: connections, connections: 2, duration: 1s }
  y: { model: rate, rate: 10, duration: 2s }
repeats: 2
`;

const names = async (text: string, opts = {}) =>
  planExperiment(await loadExperiment(text), opts).runs.map((r) => r.name);

Deno.test("plan: 2 targets x 2 loads x 2 repeats, interleaved: repeat -> load -> target", async () => {
  assert.deepEqual(await names(TWO_BY_TWO), [
    "a/x#1",
    "b/x#1",
    "a/y#1",
    "b/y#1",
    "a/x#2",
    "b/x#2",
    "a/y#2",
    "b/y#2",
  ]);
  const plan = planExperiment(await loadExperiment(TWO_BY_TWO));
  assert.deepEqual(plan.runs.map((r) => r.index), [0, 1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(plan.runs.map((r) => r.repeat), [0, 0, 0, 0, 1, 1, 1, 1]);
  assert.deepEqual(plan.runs[0].attack, {
    model: "connections",
    connections: 2,
    durationMs: 1_000,
    intervalMs: 250,
    warmupMs: 0,
    intervalHistograms: true,
  });
});

Deno.test("plan: sequential order is target -> load -> repeat; no #r with one repeat", async () => {
  assert.deepEqual(await names(TWO_BY_TWO + "order: sequential\n"), [
    "a/x#1",
    "a/x#2",
    "a/y#1",
    "a/y#2",
    "b/x#1",
    "b/x#2",
    "b/y#1",
    "b/y#2",
  ]);
  assert.deepEqual(await names(TWO_BY_TWO.replace("repeats: 2", "")), ["a/x", "b/x", "a/y", "b/y"]);
});

Deno.test("plan: a sweep covers its pairs only, which run at its points", async () => {
  const text = TWO_BY_TWO.replace("repeats: 2", "") +
    "sweeps: [{ parameter: load.rate, values: [5, 50], loads: [y], targets: [a] }]\n";
  assert.deepEqual(await names(text), ["a/x", "b/x", "a/y/load.rate=5", "a/y/load.rate=50", "b/y"]);
  const runs = planExperiment(await loadExperiment(text)).runs;
  assert.deepEqual(runs[3].sweep, { parameter: "load.rate", value: 50 });
  assert.equal(runs[3].attack.model === "rate" && runs[3].attack.phases[0].ratePerSec, 50);
  assert.equal(runs[4].attack.model === "rate" && runs[4].attack.phases[0].ratePerSec, 10);
});

Deno.test("plan: a grid crosses two sweeps", async () => {
  const text = TWO_BY_TWO.replace("repeats: 2", "") + `grid: true
sweeps:
  - { parameter: load.connections, values: [1, 4], loads: [x], targets: [a] }
  - { parameter: query.ms, values: [0, 5], loads: [x], targets: [a] }
`;
  const runs = planExperiment(await loadExperiment(text)).runs.filter((r) =>
    r.variant === "a" && r.load === "x"
  );
  assert.deepEqual(runs.map((r) => r.name), [
    "a/x/load.connections=1/query.ms=0",
    "a/x/load.connections=1/query.ms=5",
    "a/x/load.connections=4/query.ms=0",
    "a/x/load.connections=4/query.ms=5",
  ]);
  assert.deepEqual(runs[3].sweep2, { parameter: "query.ms", value: 5 });
  assert.equal(runs[3].attack.model === "connections" && runs[3].attack.connections, 4);
  assert.deepEqual(runs[3].attack.requestMix, [{ path: "/?ms=5" }]);
});

Deno.test("plan: a query sweep rewrites every request and flow step path", async () => {
  const text = `
name: q
targets: { a: { kind: builtin } }
requests: ["/cpu?n=1", { path: /sleep, query: { ms: 1, z: a } }]
loads:
  x: { model: count, requests: 10 }
  f: { model: count, requests: 10, flows: [{ name: s, steps: [{ get: /a }, { think: 1s }, { post: /b?k=v }] }] }
sweeps: [{ parameter: query.ms, values: [7] }]
`;
  const [x, f] = planExperiment(await loadExperiment(text)).runs;
  assert.deepEqual(x.attack.requestMix?.map((r) => r.path), ["/cpu?n=1&ms=7", "/sleep?ms=7&z=a"]);
  const steps = f.attack.flows?.[0].steps ?? [];
  assert.deepEqual(
    steps.map((s) => ("request" in s ? s.request.path : "thinkMs" in s ? s.thinkMs : undefined)),
    [
      "/a?ms=7",
      1_000,
      "/b?k=v&ms=7",
    ],
  );
  assert.equal(f.attack.requestMix, undefined);
});

Deno.test("plan: a secret swept value shows as its token in the run's name and sweep, sent as it is", async () => {
  const text = `
name: q
targets: { a: { kind: builtin } }
requests: [/json]
loads: { x: { model: count, requests: 10 } }
sweeps:
  - { parameter: query.api_key, values: [KEYONE11] }
  - { parameter: query.token, values: [42] }
  - { parameter: query.page, values: [3] }
`;
  const [one, two, page] = planExperiment(await loadExperiment(text)).runs;
  assert.equal(one.name, `a/x/query.api_key=${redactedToken("KEYONE11")}`);
  assert.deepEqual(one.sweep, { parameter: "query.api_key", value: redactedToken("KEYONE11") });
  assert.deepEqual(two.sweep?.value, redactedToken("42"));
  assert.deepEqual(one.attack.requestMix?.map((r) => r.path), ["/json?api_key=KEYONE11"]);
  assert.deepEqual(two.attack.requestMix?.map((r) => r.path), ["/json?token=42"]);
  assert.equal(page.name, "a/x/query.page=3", "other parameters show as they are");
  const kept = planExperiment(await loadExperiment(text), { keepSecrets: true }).runs[0];
  assert.equal(kept.name, "a/x/query.api_key=KEYONE11");
  const off = planExperiment(await loadExperiment(`${text}redact: false\n`)).runs[0];
  assert.deepEqual(off.sweep?.value, "KEYONE11");
});

Deno.test("plan: requests become engine inputs (query in path, headers as pairs, json body)", async () => {
  const text = `
name: r
targets: { a: { kind: builtin } }
requests: [{ method: post, path: /v, query: { id: 7 }, headers: { x-a: "1" }, json: { n: 1 }, weight: 2 }]
loads: { x: { model: count, requests: 1 } }
`;
  const [run] = planExperiment(await loadExperiment(text)).runs;
  const [request] = run.attack.requestMix ?? [];
  assert.equal(request.method, "POST");
  assert.equal(request.path, "/v?id=7");
  assert.deepEqual(request.headers, [["x-a", "1"], ["content-type", "application/json"]]);
  assert.equal(new TextDecoder().decode(request.body), '{"n":1}');
  assert.equal(request.weight, 2);
});

Deno.test("plan: restart policies decide freshTarget; a variant's runs share a targetKey", async () => {
  const fresh = async (restart: string) =>
    planExperiment(await loadExperiment(TWO_BY_TWO + `restart: ${restart}\n`)).runs.map((r) => r.freshTarget);
  assert.deepEqual(await fresh("never"), [true, true, false, false, false, false, false, false]);
  assert.deepEqual(await fresh("per-repeat"), [true, true, false, false, true, true, false, false]);
  assert.deepEqual(await fresh("per-run"), [true, true, true, true, true, true, true, true]);
  const runs = planExperiment(await loadExperiment(TWO_BY_TWO)).runs;
  assert.equal(runs[0].targetKey, runs[2].targetKey);
  assert.notEqual(runs[0].targetKey, runs[1].targetKey);
  const same = planExperiment(await loadExperiment(TWO_BY_TWO.replace("instances: 2", "")));
  assert.notEqual(
    same.runs[0].targetKey,
    same.runs[1].targetKey,
    "identical specs of two variants: two processes",
  );
});

Deno.test("plan: a target.* sweep gives each value its own targetKey and a fresh start", async () => {
  const text = TWO_BY_TWO.replace("repeats: 2", "") +
    "sweeps: [{ parameter: target.instances, values: [1, 3], targets: [b], loads: [x] }]\n";
  const runs = planExperiment(await loadExperiment(text)).runs.filter((r) =>
    r.variant === "b" && r.load === "x"
  );
  assert.deepEqual(runs.map((r) => r.target.kind === "spec" && r.target.spec), [
    { kind: "builtin", instances: 1 },
    { kind: "builtin", instances: 3 },
  ]);
  assert.notEqual(runs[0].targetKey, runs[1].targetKey);
  assert.deepEqual(runs.map((r) => r.freshTarget), [true, true]);
});

Deno.test("plan: --only runs a subset; an unknown name is an error", async () => {
  assert.deepEqual(await names(TWO_BY_TWO, { only: { target: ["b"], load: ["y"] } }), ["b/y#1", "b/y#2"]);
  const experiment = await loadExperiment(TWO_BY_TWO);
  assert.throws(
    () => planExperiment(experiment, { only: { target: ["c"] } }),
    /no target named "c"/,
  );
});

Deno.test("plan: a proxy upstream named by target is a copy of that target's spec", async () => {
  const text = `
name: p
targets:
  direct: { kind: builtin, cacheTtlSec: 0 }
  cached: { kind: proxy, upstream: direct, cacheTtlSec: 60 }
  ext: { kind: proxy, upstream: mine }
  mine: { url: "http://127.0.0.1:3000" }
loads: { x: { model: count, requests: 1 } }
`;
  const runs = planExperiment(await loadExperiment(text)).runs;
  assert.deepEqual(runs[1].target, {
    kind: "spec",
    spec: { kind: "proxy", upstream: { kind: "builtin", cacheTtlSec: 0 }, cacheTtlSec: 60 },
  });
  assert.deepEqual(runs[2].target, {
    kind: "spec",
    spec: { kind: "proxy", upstream: { url: "http://127.0.0.1:3000" } },
  });
  assert.deepEqual(runs[3].target, { kind: "url", url: "http://127.0.0.1:3000" });
  assert.equal(runs[3].freshTarget, false);
});

Deno.test("plan: thresholds scoped per run, cooldown, warmup auto", async () => {
  const text = TWO_BY_TWO.replace("repeats: 2", "") + `cooldown: 1s
warmup: auto
thresholds: ["p99 < 100ms", { expr: "rps > 5", target: b }, { expr: "success > 99%", load: y }]
`;
  const runs = planExperiment(await loadExperiment(text)).runs;
  assert.deepEqual(runs.map((r) => r.thresholds), [
    ["p99 < 100ms"],
    ["p99 < 100ms", "rps > 5"],
    ["p99 < 100ms", "success > 99%"],
    ["p99 < 100ms", "rps > 5", "success > 99%"],
  ]);
  assert.deepEqual(runs.map((r) => r.cooldownMs), [0, 1_000, 1_000, 1_000]);
  assert.ok(runs.every((r) => r.warmupAuto && r.attack.warmupMs === 0));
});

Deno.test("plan: the capacity search varies the base run for probe-long runs", async () => {
  const text = TWO_BY_TWO.replace("repeats: 2", "") +
    "search: { parameter: load.rate, load: y, targets: [b], range: [10, 1000], slo: 'p99 < 10ms', probe: 3s }\n";
  const plan = planExperiment(await loadExperiment(text));
  assert.equal(plan.searches.length, 1);
  const [search] = plan.searches;
  assert.deepEqual(
    { ...search, base: undefined },
    {
      parameter: "load.rate",
      target: "b",
      load: "y",
      range: [10, 1000],
      slo: "p99 < 10ms",
      probeMs: 3_000,
      precision: 0.05,
      maxProbes: 12,
      base: undefined,
    },
  );
  assert.equal(search.base.attack.model === "rate" && search.base.attack.phases[0].durationMs, 3_000);
  const probe = applyParameter(search.base, "load.rate", 400);
  assert.equal(probe.attack.model === "rate" && probe.attack.phases[0].ratePerSec, 400);
  assert.equal(
    search.base.attack.model === "rate" && search.base.attack.phases[0].ratePerSec,
    10,
    "base untouched",
  );
});

Deno.test("estimateDurationMs: durations, warm-ups, cooldowns and probes", async () => {
  const plan = planExperiment(
    await loadExperiment(TWO_BY_TWO.replace("repeats: 2", "warmup: 1s\ncooldown: 500ms")),
  );
  // x: 1 s + 1 s warm-up, y: 2 s + 1 s, two targets each; three cooldowns.
  assert.equal(estimateDurationMs(plan), 2 * 2_000 + 2 * 3_000 + 3 * 500);
});

Deno.test("plan: the demo preset and the documented example plan", async () => {
  const demo = await Deno.readTextFile(new URL("../presets/demo.yaml", import.meta.url));
  assert.ok(planExperiment(await loadExperiment(demo, { quick: true })).runs.length > 0);
  const doc = await Deno.readTextFile(new URL("../../docs/EXPERIMENTS.md", import.meta.url));
  const example = doc.split("```yaml\n")[1].split("```")[0];
  const plan = planExperiment(await loadExperiment(example));
  assert.ok(plan.runs.length > 0 && plan.searches.length > 0);
});
