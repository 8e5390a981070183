import assert from "node:assert/strict";
import type { Issue } from "../../validation/mod.ts";
import { ExperimentError } from "../experiment_error.ts";
import { loadExperiment, loadPlan } from "../load.ts";

const BASE = `
name: t
targets:
  direct: { kind: builtin }
  cached: { kind: proxy, upstream: direct, cacheTtlSec: 60 }
loads:
  steady: { model: rate, rate: 100, duration: 10s }
  closed: { model: connections, connections: 4, duration: 2s }
`;

/** The issues `loadPlan` throws for `text` (the file and its plan; not this machine's checks). */
async function issuesOf(text: string, opts: Parameters<typeof loadPlan>[1] = {}): Promise<Issue[]> {
  try {
    await loadPlan(text, { ...opts, preflight: false });
  } catch (err) {
    if (err instanceof ExperimentError) return err.issues;
    throw err;
  }
  assert.fail("expected an ExperimentError");
}

async function assertIssue(text: string, path: string, message: RegExp, opts = {}): Promise<void> {
  const issues = await issuesOf(text, opts);
  assert.ok(
    issues.some((i) => i.path === path && message.test(i.message)),
    `no issue at ${path} matching ${message}; got ${JSON.stringify(issues)}`,
  );
}

Deno.test("loadExperiment: a valid file, durations in milliseconds, defaults filled", async () => {
  const exp = await loadExperiment(BASE + "warmup: 2s\ncooldown: 500ms\nrepeats: 2\n");
  assert.equal(exp.warmupMs, 2_000);
  assert.equal(exp.warmupAuto, false);
  assert.equal(exp.cooldownMs, 500);
  assert.equal(exp.intervalMs, 250);
  assert.equal(exp.order, "interleaved");
  assert.equal(exp.restart, "never");
  assert.equal(exp.intervalHistograms, "keep");
  assert.deepEqual(exp.loads.steady, { model: "rate", phases: [{ durationMs: 10_000, ratePerSec: 100 }] });
  assert.deepEqual(exp.loads.closed, { model: "connections", connections: 4, durationMs: 2_000 });
  assert.equal((await loadExperiment(BASE + "warmup: auto\n")).warmupAuto, true);
});

Deno.test("loadExperiment: JSON files too", async () => {
  const exp = await loadExperiment(JSON.stringify({
    name: "j",
    targets: { a: { url: "http://127.0.0.1:3000" } },
    loads: { l: { model: "count", requests: 10 } },
  }));
  assert.deepEqual(exp.targets.a, { kind: "url", url: "http://127.0.0.1:3000" });
});

Deno.test("loadExperiment: request shorthand and objects", async () => {
  const exp = await loadExperiment(
    BASE + `requests:
  - /home
  - post /login
  - { path: /v, query: { id: 7 }, json: { a: 1 }, weight: 2 }
`,
  );
  assert.deepEqual(exp.requests, [
    { method: "GET", path: "/home" },
    { method: "POST", path: "/login" },
    { method: "GET", path: "/v", query: { id: 7 }, json: { a: 1 }, weight: 2 },
  ]);
  await assertIssue(
    BASE + "requests: ['GET /a /b']\n",
    "requests[0]",
    /is not a request; write "PATH" or "METHOD PATH"/,
  );
  await assertIssue(
    BASE + "requests: [{ path: /a, json: 1, body: x }]\n",
    "requests[0].body",
    /json or body, not both/,
  );
});

Deno.test("loadExperiment: flows with steps and think times", async () => {
  const exp = await loadExperiment(
    BASE + `flows:
  - name: browse
    steps:
      - get: /home
      - think: 500ms
      - { post: { path: /login, json: { user: ada } }, label: login }
`,
  );
  assert.deepEqual(exp.flows, [{
    name: "browse",
    weight: 1,
    steps: [
      { request: { method: "GET", path: "/home" } },
      { thinkMs: 500 },
      { request: { method: "POST", path: "/login", json: { user: "ada" } }, label: "login" },
    ],
  }]);
  await assertIssue(
    BASE + "flows: [{ name: f, steps: [{ get: /a, think: 1s }] }]\n",
    "flows[0].steps[0]",
    /one thing/,
  );
});

Deno.test("errors: an unknown key says did you mean", async () => {
  await assertIssue(BASE + "repeat: 3\n", "repeat", /unknown key; did you mean "repeats"\?/);
  await assertIssue(
    BASE.replace("connections: 4,", "conections: 4,"),
    "loads.closed.conections",
    /did you mean "connections"/,
  );
  await assertIssue(
    BASE.replace("kind: builtin }", "kind: builtin, instancse: 2 }"),
    "targets.direct.instancse",
    /did you mean "instances"/,
  );
});

Deno.test("errors: a bad duration, and a bare number, say what a duration is", async () => {
  await assertIssue(
    BASE + "cooldown: 10x\n",
    "cooldown",
    /"10x" is not a duration; use a number with ms, s, m or h/,
  );
  await assertIssue(
    BASE + "cooldown: 10\n",
    "cooldown",
    /expected a duration with a unit, e\.g\. "500ms", "10s", "1m", found 10/,
  );
  await assertIssue(BASE.replace("duration: 10s", "duration: 10"), "loads.steady.duration", /found 10/);
});

Deno.test("errors: a script's time limits without a script say so", async () => {
  await assertIssue(
    BASE + "setupTimeout: 2m\n",
    "setupTimeout",
    /limits a session script's setup\(\); add script:/,
  );
  await assertIssue(
    BASE + "teardownTimeout: 5s\n",
    "teardownTimeout",
    /limits a session script's teardown\(\)/,
  );
});

Deno.test("errors: a field the model needs is missing", async () => {
  await assertIssue(BASE + "  t: { model: throughput, duration: 5s }\n", "loads.t.rate", /missing/);
  await assertIssue(BASE + "  c: { model: count, connections: 2 }\n", "loads.c.requests", /missing/);
  await assertIssue(
    BASE + "  r: { model: rate, maxConnections: 5 }\n",
    "loads.r.phases",
    /missing; a rate load needs phases or rate/,
  );
  await assertIssue(
    BASE + "  r: { model: rate, rate: 5 }\n",
    "loads.r.duration",
    /missing; rate needs a duration/,
  );
  await assertIssue(
    BASE + "  x: { model: closed }\n",
    "loads.x.model",
    /expected one of "connections", "rate", "throughput", "count"/,
  );
  // A field of another model is an unknown key, not silently ignored.
  await assertIssue(
    BASE + "  r: { model: rate, rate: 5, duration: 1s, connections: 3 }\n",
    "loads.r.connections",
    /unknown key/,
  );
});

Deno.test("errors: names that must exist, with did you mean", async () => {
  await assertIssue(
    BASE + "baseline: drect\n",
    "baseline",
    /no target named "drect"; did you mean "direct"\?/,
  );
  await assertIssue(
    BASE + "sweeps: [{ parameter: query.ms, values: [1], loads: [stedy] }]\n",
    "sweeps[0].loads[0]",
    /no load named "stedy"; did you mean "steady"\?/,
  );
  await assertIssue(
    BASE + "thresholds: [{ expr: 'p99 < 5ms', target: cashed }]\n",
    "thresholds[0].target",
    /did you mean "cached"/,
  );
  await assertIssue(
    BASE + "search: { parameter: load.rate, load: steady, targets: [x], range: [1, 2], slo: 'p99 < 1ms' }\n",
    "search.targets[0]",
    /no target named "x"; the targets are direct, cached/,
  );
  await assertIssue(
    BASE + "search: { parameter: load.rate, range: [1, 2], slo: 'p99 < 1ms' }\n",
    "search.load",
    /several loads/,
  );
  await assertIssue(
    BASE + "expect: [{ metric: p99, better: cashed, than: direct }]\n",
    "expect[0].better",
    /no target named "cashed"; did you mean "cached"\?/,
  );
  await assertIssue(
    BASE + "expect: [{ metric: latency, better: cached, than: direct }]\n",
    "expect[0].metric",
    /p99/,
  );
});

Deno.test("errors: grid needs exactly two sweeps; load.rate needs one rate", async () => {
  await assertIssue(
    BASE + "grid: true\nsweeps: [{ parameter: query.ms, values: [1] }]\n",
    "grid",
    /exactly two sweeps; found 1/,
  );
  await assertIssue(
    BASE + "sweeps: [{ parameter: load.rate, values: [1, 2] }]\n",
    "sweeps[0].parameter",
    /load "closed" \(model connections\) has no rate/,
  );
  const ramp = BASE.replace(
    "rate: 100, duration: 10s",
    "phases: [{ duration: 1s, rate: 1 }, { duration: 1s, rate: 2 }]",
  );
  await assertIssue(
    ramp + "sweeps: [{ parameter: load.rate, values: [1], loads: [steady] }]\n",
    "sweeps[0].parameter",
    /one rate/,
  );
  await assertIssue(
    BASE + "sweeps: [{ parameter: target.instancse, values: [1], targets: [direct] }]\n",
    "sweeps[0].parameter",
    /did you mean target\.instances/,
  );
});

Deno.test("errors: thresholds and the search SLO must parse", async () => {
  await assertIssue(BASE + "thresholds: ['p99 <']\n", "thresholds[0]", /not understood/);
  await assertIssue(
    BASE + "thresholds: [{ expr: 'p42 < 1ms' }]\n",
    "thresholds[0].expr",
    /unknown metric "p42"/,
  );
  await assertIssue(
    BASE + "thresholds: [{ expr: 'p99 < 1s', delayAbortEval: 10s }]\n",
    "thresholds[0].delayAbortEval",
    /needs abortOnFail: true/,
  );
  await assertIssue(
    BASE + "thresholds: [{ threshold: 'p42 < 1ms' }]\n",
    "thresholds[0].threshold",
    /unknown metric/,
  );
  await assertIssue(
    BASE + "thresholds: [{ abortOnFail: true }]\n",
    "thresholds[0].expr",
    /or threshold:, as k6/,
  );
  await assertIssue(
    BASE + "thresholds: [{ expr: 'p99 < 1s', threshold: 'p99 < 2s' }]\n",
    "thresholds[0].threshold",
    /not both/,
  );
  await assertIssue(
    BASE +
      "search: { parameter: load.rate, load: steady, range: [1, 2], slo: 'p99 < 1ms and sucess > 99%' }\n",
    "search.slo",
    /unknown metric "sucess"/,
  );
});

Deno.test("thresholds: k6's threshold: key is expr; --abort-on-fail gives every threshold abortOnFail", async () => {
  const text = BASE +
    "thresholds: [{ threshold: 'p99 < 1s', abortOnFail: true, delayAbortEval: 2s }, 'rps > 1', " +
    "{ expr: 'p50 < 1s', load: steady }]\n";
  const plain = await loadExperiment(text);
  assert.deepEqual(plain.thresholds, [
    { expr: "p99 < 1s", abortOnFail: true, delayAbortEvalMs: 2000 },
    { expr: "rps > 1" },
    { expr: "p50 < 1s", load: "steady" },
  ]);
  // The flag: every threshold aborts; its delay replaces the file's only when given.
  assert.deepEqual(
    (await loadExperiment(text, { abortOnFail: {} })).thresholds.map((t) => t.delayAbortEvalMs),
    [
      2000,
      undefined,
      undefined,
    ],
  );
  const flagged = (await loadExperiment(text, { abortOnFail: { delayMs: 5000 } })).thresholds;
  assert.deepEqual(flagged.map((t) => [t.abortOnFail, t.delayAbortEvalMs]), [[true, 5000], [true, 5000], [
    true,
    5000,
  ]]);
});

Deno.test("errors: proxy upstreams must name a target and form no cycle", async () => {
  await assertIssue(
    BASE.replace("upstream: direct", "upstream: dirct"),
    "targets.cached.upstream",
    /did you mean "direct"/,
  );
  const cycle = BASE.replace("direct: { kind: builtin }", "direct: { kind: proxy, upstream: cached }");
  await assertIssue(cycle, "targets.cached.upstream", /cycle: cached -> direct -> cached/);
  // Through an inline proxy the named upstream is one level deeper, and the cycle is found through it.
  const inline = "{ kind: proxy, upstream: { kind: proxy, upstream: X } }";
  await assertIssue(
    BASE.replace("{ kind: proxy, upstream: direct, cacheTtlSec: 60 }", inline.replace("X", "dirct")),
    "targets.cached.upstream.upstream",
    /did you mean "direct"/,
  );
  const deep = cycle.replace(
    "{ kind: proxy, upstream: direct, cacheTtlSec: 60 }",
    inline.replace("X", "direct"),
  );
  await assertIssue(deep, "targets.cached.upstream.upstream", /cycle: cached -> direct -> cached/);
  await assertIssue(deep, "targets.direct.upstream", /cycle: direct -> cached -> direct/);
});

Deno.test("errors: a YAML syntax error names its line", async () => {
  await assertIssue(
    "name: t\ntargets:\n  a: [1, 2\nloads: {}\n",
    "line 4, column 1",
    /not valid YAML or JSON/,
  );
});

Deno.test("--quick deep-merges the quick: section; a broken quick: section fails without --quick too", async () => {
  const text = BASE + "repeats: 3\nquick:\n  repeats: 1\n  loads: { closed: { duration: 500ms } }\n";
  const quick = await loadExperiment(text, { quick: true });
  assert.equal(quick.repeats, 1);
  assert.deepEqual(quick.loads.closed, { model: "connections", connections: 4, durationMs: 500 });
  assert.deepEqual(quick.loads.steady, (await loadExperiment(text)).loads.steady);
  assert.equal((await loadExperiment(text)).repeats, 3);
  await assertIssue(BASE + "quick: { repeats: 0 }\n", "repeats", /must be >= 1.*\(with --quick\)/);
  await assertIssue(BASE, "quick", /needs a quick: section/, { quick: true });
});

Deno.test("--set overrides by path before validation; an unknown path is named", async () => {
  const exp = await loadExperiment(BASE, {
    set: ["repeats=5", "loads.closed.connections=8", "targets.direct.instances=3"],
  });
  assert.equal(exp.repeats, 5);
  assert.equal(exp.loads.closed.model === "connections" && exp.loads.closed.connections, 8);
  assert.deepEqual(exp.targets.direct, { kind: "builtin", instances: 3 });
  const phased = BASE.replace(
    "rate: 100, duration: 10s",
    "phases: [{ duration: 1s, rate: 1 }, { duration: 1s, rate: 2 }]",
  );
  const set = await loadExperiment(phased, { set: ["loads.steady.phases[1].rate=300"] });
  assert.deepEqual(set.loads.steady.model === "rate" && set.loads.steady.phases[1].ratePerSec, 300);
  await assertIssue(
    BASE,
    "--set loads.stedy.rate=5",
    /loads\.stedy does not exist; did you mean loads\.steady\?/,
    {
      set: ["loads.stedy.rate=5"],
    },
  );
  await assertIssue(
    phased,
    "--set loads.steady.phases[5].rate=1",
    /phases\[5\] does not exist; loads\.steady\.phases has 2 items/,
    {
      set: ["loads.steady.phases[5].rate=1"],
    },
  );
  await assertIssue(BASE, "--set repeats", /write PATH=VALUE/, { set: ["repeats"] });
  // A new key is validated like any other: a typo is an unknown key.
  await assertIssue(BASE, "repeat", /did you mean "repeats"/, { set: ["repeat=2"] });
});

Deno.test("--target replaces a target by a running server", async () => {
  const exp = await loadExperiment(BASE, { targets: { direct: "http://127.0.0.1:9999" } });
  assert.deepEqual(exp.targets.direct, { kind: "url", url: "http://127.0.0.1:9999" });
  await assertIssue(BASE, "--target drect=http://x:1", /did you mean "direct"/, {
    targets: { drect: "http://x:1" },
  });
});

Deno.test("ExperimentError: one line per issue, prefixed with the file", async () => {
  try {
    await loadExperiment(BASE + "repeat: 3\nbaseline: nope\n", { file: "study.yaml" });
    assert.fail("expected an error");
  } catch (err) {
    assert.ok(err instanceof ExperimentError);
    const lines = err.message.split("\n");
    assert.equal(lines.length, err.issues.length);
    assert.ok(lines.every((line) => line.startsWith("study.yaml: ")), err.message);
  }
});

Deno.test("errors: what only the engine knows is checked for every run before load", async () => {
  await assertIssue(
    BASE.replace("connections: 4,", "connections: 2, workers: 4,"),
    "loads.closed.workers",
    /workers \(4\) must not exceed connections \(2\) \(in run direct\/closed\)/,
  );
  await assertIssue(
    BASE + "  w: { model: throughput, rate: 10, flows: [{ name: f, steps: [{ get: /a }] }] }\n",
    "loads.w.flows",
    /flows need a rate, connections or count load/,
  );
});

Deno.test("errors: what the engine finds points at the key written, not the engine's field", async () => {
  const rate = BASE.replace(
    "steady: { model: rate, rate: 100, duration: 10s }",
    "steady: { model: rate, phases: [{ duration: 1s, rate: 5 }, { duration: 0s, rate: 5 }] }",
  );
  await assertIssue(rate, "loads.steady.phases[1].duration", /phase duration must be > 0/);
  // A file-wide setting is named once, at its own key, not once per load.
  const interval = await issuesOf(BASE + "interval: 0s\n");
  assert.deepEqual(interval.map((i) => i.path), ["interval"]);
  // A sweep value the engine refuses is named by its place in the sweep, without a repeated consequence.
  const sweep = await issuesOf(
    BASE + "sweeps: [{ parameter: load.connections, values: [2, 0], loads: [closed] }]\n",
  );
  assert.deepEqual(sweep.map((i) => i.path), ["sweeps[0].values[1]"]);
  assert.match(sweep[0].message, /connections must be >= 1 \(in run .*load\.connections=0\)/);
});

Deno.test("errors: a built-in target's cms section is strict", async () => {
  await assertIssue(
    BASE.replace("direct: { kind: builtin }", "direct: { kind: builtin, cms: { pool: 3 } }"),
    "targets.direct.cms.pool",
    /unknown key/,
  );
});

Deno.test("errors: a closed count's maxConnections, an external url without http://, a swept target field", async () => {
  await assertIssue(
    BASE + "  n: { model: count, requests: 5, maxConnections: 10 }\n",
    "loads.n.maxConnections",
    /caps open pacing only; add rate:/,
  );
  await assertIssue(
    BASE.replace(
      "direct: { kind: builtin }",
      'direct: { kind: external, command: sh, url: "localhost:3000" }',
    ),
    "targets.direct.url",
    /must start with http:\/\//,
  );
  await assertIssue(
    BASE + "sweeps: [{ parameter: target.instances, values: [2, 0], targets: [direct] }]\n",
    "sweeps[0].values[1]",
    /instances must be >= 1 \(in run direct\/.*target\.instances=0\)/,
  );
});

Deno.test("ramping connections: a connections load with stages, each bad stage named at its key", async () => {
  const ramp =
    "  ramp: { model: connections, stages: [{ duration: 1s, target: 5 }, { duration: 2s, target: 0 }] }\n";
  assert.deepEqual((await loadExperiment(BASE + ramp)).loads.ramp, {
    model: "ramping-connections",
    stages: [{ durationMs: 1_000, target: 5 }, { durationMs: 2_000, target: 0 }],
  });
  await assertIssue(
    BASE + ramp.replace("target: 0", "target: -2"),
    "loads.ramp.stages[1].target",
    /must be >= 0/,
  );
  await assertIssue(
    BASE + ramp.replace("target: 5", "target: 1000001"),
    "loads.ramp.stages[0].target",
    /at most 1,000,000/,
  );
  await assertIssue(
    BASE + ramp.replace("duration: 2s", "duration: 0s"),
    "loads.ramp.stages[1].duration",
    /> 0/,
  );
  await assertIssue(
    BASE + ramp.replace("stages", "connections: 3, stages"),
    "loads.ramp.connections",
    /not both/,
  );
  await assertIssue(
    BASE + "  ramp: { model: connections, stages: [] }\n",
    "loads.ramp.stages",
    /at least one stage/,
  );
  const cut = ramp.replace("stages", "gracefulRampDown: 0s, stages");
  assert.deepEqual((await loadExperiment(BASE + cut)).loads.ramp, {
    model: "ramping-connections",
    stages: [{ durationMs: 1_000, target: 5 }, { durationMs: 2_000, target: 0 }],
    gracefulRampDownMs: 0,
  });
  await assertIssue(
    BASE + "  ramp: { model: connections, connections: 2, gracefulRampDown: 1s }\n",
    "loads.ramp.gracefulRampDown",
    /needs stages/,
  );
});

Deno.test("errors: two flows of one name are refused at the second (their results read as one flow's)", async () => {
  const flows = "flows:\n  - { name: a, steps: [{ get: /json }] }\n  - { name: a, steps: [{ get: /x }] }\n";
  await assertIssue(
    BASE + flows,
    "flows[1].name",
    /"a" is the name of flows\[0\] already: give each flow its own/,
  );
  const own = BASE.replace(
    "closed: { model: connections, connections: 4, duration: 2s }",
    "closed:\n    model: connections\n    connections: 4\n    duration: 2s\n" +
      "    flows: [{ name: b, steps: [{ get: /json }] }, { name: b, steps: [{ get: /x }] }]",
  );
  await assertIssue(own, "loads.closed.flows[1].name", /"b" is the name of flows\[0\] already/);
});

Deno.test("errors: target names alike but for case each name their log folder, so the later is refused", async () => {
  const text = BASE.replace(
    "  direct: { kind: builtin }",
    "  direct: { kind: builtin }\n  Direct: { kind: builtin }",
  );
  await assertIssue(
    text,
    "targets.Direct",
    /"Direct" and "direct" differ only in case; .*rename one, e.g. "Direct-2"/,
  );
  assert.equal((await issuesOf(text)).filter((i) => /differ only in case/.test(i.message)).length, 1);
});

Deno.test("errors: profile: cpu on an external app that is no node or deno, at its path, inline upstreams too", async () => {
  const app = '{ kind: external, command: python3, url: "http://127.0.0.1:1", profile: cpu }';
  const text = BASE.replace("  direct: { kind: builtin }", `  direct: { kind: builtin }\n  py: ${app}`)
    .replace("{ kind: proxy, upstream: direct, cacheTtlSec: 60 }", `{ kind: proxy, upstream: ${app} }`);
  await assertIssue(
    text,
    "targets.py.profile",
    /profile: cpu needs a node or deno command \(V8 inspector\), not 'python3'/,
  );
  await assertIssue(text, "targets.cached.upstream.profile", /profile: cpu needs a node or deno command/);
  assert.equal((await issuesOf(text)).length, 2);
});
