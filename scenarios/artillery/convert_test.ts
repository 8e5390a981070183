import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { parse } from "yaml";
import { isArtilleryScript } from "./common.ts";
import { scriptEnd } from "./convert.ts";
import { artilleryToExperiment } from "../../tests/artillery_import.ts";
import { ArtilleryError } from "./common.ts";
import { FRACTIONAL_THINK } from "./flow.ts";
import { ExperimentError } from "../experiment_error.ts";
import { loadExperiment, loadRunnable } from "../load.ts";

const SCRIPT = `
config:
  target: http://127.0.0.1:8080
  phases:
    - { name: warm up, duration: 10, arrivalRate: 5 }
    - { name: burst, duration: 60, arrivalRate: 50, rampTo: 200 }
    - { duration: 20, arrivalCount: 50 }
    - { pause: 5 }
    - { duration: 2.5, arrivalRate: 1, maxVusers: 40 }
  http: { timeout: 5 }
  variables: { id: 7, user: ada }
  defaults:
    headers: { x-api-key: secret, accept: text/html }
  plugins: { ensure: {} }
  ensure:
    p95: 200.7
    median: 50
    maxErrorRate: 1
    thresholds:
      - http.response_time.p99: 250
    conditions:
      - expression: http.response_time.max <= 900 and http.request_rate > 10
      - expression: http.response_time.min < 1
        strict: false
scenarios:
  - name: browse
    weight: 3
    flow:
      - get: { url: "/home", qs: { page: 2, q: "{{ user }}" } }
      - think: 1.5
      - post:
          url: "/users/{{ id }}"
          headers: { accept: application/json }
          json: { id: "{{ id }}", name: "{{ user }}-x" }
  - flow:
      - get: { url: "http://127.0.0.1:8080/json?a=1" }
`;

function convert(text: string, warnings: string[] = []) {
  const { experiment, notes } = artilleryToExperiment(parse(text), { file: "examples/artillery/cms.yml" });
  warnings.push(...notes);
  return experiment;
}

function issuesOf(text: string) {
  try {
    convert(text);
  } catch (e) {
    if (e instanceof ArtilleryError) return e.issues;
    throw e;
  }
  throw new Error("expected an ArtilleryError");
}

Deno.test("isArtilleryScript: config with target or phases plus a scenarios list", () => {
  assert(isArtilleryScript(parse(SCRIPT)));
  assert(!isArtilleryScript({ name: "x", targets: {}, loads: {} }));
  assert(!isArtilleryScript({ config: { target: "http://x" } }));
  assert(!isArtilleryScript({ config: {}, scenarios: [] }));
  assert(!isArtilleryScript("config"));
});

Deno.test("phases: seconds as durations, rampTo, arrivalCount as a rate, pause as rate 0, every phase named", () => {
  const exp = convert(SCRIPT);
  assertEquals(exp.name, "cms");
  assertEquals(exp.targets, { target: { url: "http://127.0.0.1:8080" } });
  const load = (exp.loads as Record<string, Record<string, unknown>>).artillery;
  assertEquals(load.model, "rate");
  assertEquals(load.connection, "per-arrival");
  assertEquals(load.timeout, "5s");
  // One phase's cap (maxVusers) is that phase's own: the load's connections are not capped by it.
  assertEquals(load.maxConnections, undefined);
  // The longest session (browse): two requests at the 5 s timeout and 1.5 s of think time.
  assertEquals(load.gracefulStop, "11500ms");
  const phases = load.phases as Record<string, unknown>[];
  // Artillery's ramp: whole arrivals each second on the line from 50 to 200, 7,500 in all.
  const perSecond = phases[1].perSecond as number[];
  assertEquals([perSecond.slice(0, 4), perSecond.at(-1), perSecond.reduce((a, b) => a + b)], [
    [50, 53, 55, 58],
    200,
    7500,
  ]);
  assertEquals(JSON.parse(JSON.stringify(phases)), [
    { name: "warm up", duration: "10s", rate: 5 },
    { name: "burst", duration: "60s", rate: 50, rampTo: 200, perSecond },
    { name: "phase 2", duration: "20s", rate: 2.5 },
    { name: "phase 3", duration: "5s", rate: 0 },
    { name: "phase 4", duration: "2500ms", rate: 1, maxBusy: 40 },
  ]);
});

Deno.test("scenarios: weighted flows, think in seconds, qs as query, default headers under step headers", () => {
  const flows = convert(SCRIPT).flows;
  assertEquals(flows, [
    {
      name: "browse",
      weight: 3,
      maxRedirects: 10,
      steps: [
        {
          get: {
            path: "/home",
            name: "/home",
            query: { page: "2", q: "ada" },
            headers: { "x-api-key": "secret", accept: "text/html" },
          },
        },
        { think: "1500ms" },
        {
          post: {
            path: "/users/7",
            name: "/users/{{ id }}",
            headers: { "x-api-key": "secret", accept: "application/json" },
            json: { id: 7, name: "ada-x" },
          },
        },
      ],
    },
    {
      name: "scenario 1",
      weight: 1,
      maxRedirects: 10,
      steps: [{
        get: {
          path: "/json?a=1",
          name: "/json", // Artillery 2 names it without its query (no plugin options)
          headers: { "x-api-key": "secret", accept: "text/html" },
        },
      }],
    },
  ]);
});

/** The ensure checks the last import leaves to the run's end: each its metric and as it is shown. */
const checks = () => scriptEnd.rules.map((r) => `${r.metric} ${r.op} ${r.value}: ${r.shown}`);

Deno.test("ensure: legacy keys (cut to whole ms), maxErrorRate, thresholds and conditions are read", () => {
  const warnings: string[] = [];
  const exp = convert(SCRIPT, warnings);
  assertEquals(exp.thresholds, undefined);
  assertEquals(checks(), [
    "http.response_time.median < 50: median < 50",
    "http.response_time.p95 < 200: p95 < 200",
    "maxErrorRate <= 1: maxErrorRate < 1",
    "http.response_time.p99 < 250: http.response_time.p99 < 250",
    "http.response_time.max <= 900: http.response_time.max <= 900",
    "http.request_rate > 10: http.request_rate > 10",
  ]);
  assert(warnings.some((w) => w.includes("strict: false")), warnings.join("\n"));
});

Deno.test("a target with a path prefixes every url, as Artillery concatenates them", () => {
  const exp = convert(`
config: { target: "http://h:1/api/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios: [{ flow: [{ get: { url: /x } }] }]
`);
  assertEquals(exp.targets, { target: { url: "http://h:1" } });
  assertEquals(exp.flows, [{
    name: "scenario 0",
    weight: 1,
    maxRedirects: 10,
    steps: [{ get: { path: "/api/x", name: "/api/x" } }],
  }]);
  assertEquals(exp.thresholds, undefined);
});

Deno.test("unsupported features: every offending path in one ArtilleryError", () => {
  const issues = issuesOf(`
config:
  target: http://127.0.0.1:8080
  processor: ./hooks.js
  payload: { path: users.csv, fields: [user], delimiter: ";" }
  variables: { id: [1, 2, 3] }
  phases: [{ duration: 10, arrivalRate: 1 }]
scenarios:
  - engine: ws
    flow: [{ send: hello }]
  - beforeRequest: sign
    flow:
      - get: { url: /login, capture: { json: $.token, as: token } }
      - get: { url: "/items/{{ id }}", match: { json: $.ok, value: true } }
      - function: setUser
      - loop: [{ get: { url: / } }]
      - ifTrue: token
`);
  assertEquals(
    issues.map((i) => i.path).sort(),
    [
      "config.processor",
      "config.payload.path",
      "scenarios[0].engine",
      "scenarios[0].flow[0].send",
      "scenarios[1].beforeRequest",
      "scenarios[1].flow[2].function",
      "scenarios[1].flow[3].loop",
      "scenarios[1].flow[4].ifTrue",
      "scenarios[0].flow",
    ].sort(),
  );
  const text = issues.map((i) => `${i.path}: ${i.message}`).join("\n");
  assert(text.includes("scenarios[1].flow[2].function: runs a JavaScript function: name its"), text);
  const one = issuesOf(
    "config: {target: http://x, phases: [{duration: 1, arrivalRate: 1}]}\n" +
      "scenarios: [{flow: [{get: {url: /, capture: {}}}]}]",
  );
  assertEquals(one, [{ path: "scenarios[0].flow[0].get.capture", message: one[0].message }]);
  const message = new ArtilleryError(one).message;
  assert(
    message.includes("scenarios[0].flow[0].get.capture: expected a capture such as {json: $.token"),
    message,
  );
});

Deno.test("malformed phases and ensure are reported at their paths", () => {
  const issues = issuesOf(`
config:
  target: 127.0.0.1:8080
  phases:
    - { duration: ten, arrivalRate: 1 }
    - { duration: 5 }
    - { pause: 1, arrivalRate: 3 }
    - { duration: 5, arrivalRate: 1, maxVusers: 10 }
    - { duration: 5, arrivalRate: 1, maxVusers: 20 }
  plugins: { ensure: {} }
  ensure:
    p99: fast
    conditions: [{ expression: "vusers.failed == 0 or http.response_time.p99 < 5" }]
scenarios: [{ flow: [{ think: 1 }] }]
`);
  assertEquals(issues.map((i) => i.path), [
    "config.target",
    "config.phases[0].duration",
    "config.phases[1].arrivalRate",
    "config.phases[2].arrivalRate",
    "scenarios[0].flow",
    "config.ensure.p99",
    "config.ensure.conditions[0].expression",
  ]);
});

Deno.test("a scenario of weight 0 is left out with a warning, as Artillery never picks it", () => {
  const warnings: string[] = [];
  const exp = convert(
    `
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios: [{ weight: 0, flow: [{ get: { url: /a } }] }, { flow: [{ get: { url: /b } }] }]
`,
    warnings,
  );
  assertEquals(exp.flows, [{
    name: "scenario 1",
    weight: 1,
    maxRedirects: 10,
    steps: [{ get: { path: "/b", name: "/b" } }],
  }]);
  assertEquals(warnings, ["scenarios[0]: weight 0, never run by Artillery; left out"]);
});

Deno.test("loadExperiment recognises an Artillery script: validated, --set applies, issues as ExperimentError", async () => {
  const exp = await loadExperiment(SCRIPT, { file: "shop.yml", set: ["loads.artillery.phases[0].rate=6"] });
  assertEquals(exp.name, "shop");
  const load = exp.loads.artillery as Record<string, unknown>;
  assertEquals(load.connection, "per-arrival");
  assertEquals((load.phases as Array<Record<string, unknown>>).map((p) => [p.name, p.ratePerSec]), [
    ["warm up", 6],
    ["burst", 50],
    ["phase 2", 2.5],
    ["phase 3", 0],
    ["phase 4", 1],
  ]);
  assertEquals(exp.flows?.map((f) => [f.name, f.weight, f.steps.length]), [["browse", 3, 3], [
    "scenario 1",
    1,
    1,
  ]]);
  const { notes } = await loadRunnable(SCRIPT, { file: "shop.yml", preflight: false });
  assert(notes.length > 0, "the import's notes come back with the plan");
  try {
    await loadExperiment(SCRIPT.replace("think: 1.5", "loop: []"), { file: "shop.yml" });
    throw new Error("expected an ExperimentError");
  } catch (err) {
    assert(err instanceof ExperimentError, String(err));
    assertEquals(err.issues.map((i) => i.path), ["scenarios[0].flow[1].loop"]);
    assert(err.message.includes("shop.yml"), err.message);
  }
});

Deno.test("default headers take templates; plugins.ensure checks count as config.ensure ones", () => {
  const exp = convert(`
config:
  target: http://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  variables: { token: abc }
  defaults: { headers: { authorization: "Bearer {{ token }}" } }
  plugins:
    ensure:
      thresholds: [{ http.response_time.p95: 100 }]
scenarios: [{ flow: [{ get: { url: /a } }] }]
`);
  assertEquals(exp.flows, [{
    name: "scenario 0",
    weight: 1,
    maxRedirects: 10,
    steps: [{ get: { path: "/a", name: "/a", headers: { authorization: "Bearer abc" } } }],
  }]);
  assertEquals(checks(), ["http.response_time.p95 < 100: http.response_time.p95 < 100"]);
  const plain = convert(`
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }], plugins: { ensure: null } }
scenarios: [{ flow: [{ get: { url: /a } }] }]
`);
  assertEquals([plain.thresholds, checks()], [undefined, []]);
  // Artillery's ensure plugin reads config.ensure when there is one, and then not config.plugins.ensure.
  const both = convert(`
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }], ensure: { p99: 9 }, plugins: { ensure: { p95: 1 } } }
scenarios: [{ flow: [{ get: { url: /a } }] }]
`);
  assertEquals(both.thresholds ?? checks(), ["http.response_time.p99 < 9: p99 < 9"]);
});

Deno.test("a fractional think keeps Artillery's documented seconds (500 ms) and is said once, naming the step", () => {
  const warnings: string[] = [];
  const exp = convert(
    `
config:
  target: "http://127.0.0.1:8080"
  phases: [{ duration: 1, arrivalRate: 1 }]
scenarios:
  - flow:
      - get: { url: "/a" }
      - think: 0.5
      - loop:
          - think: 0.25
        count: 3
      - think: 2
`,
    warnings,
  );
  assertEquals(
    (exp.flows as Array<{ steps: Array<Record<string, unknown>> }>)[0].steps.map((s) => s.think ?? "get"),
    [
      "get",
      "500ms",
      "250ms",
      "250ms",
      "250ms",
      "2s",
    ],
  );
  const notes = warnings.filter((w) => w.includes(FRACTIONAL_THINK));
  assertEquals(notes.length, 1, warnings.join("\n"));
  assert(notes[0].startsWith("scenarios[0].flow[1].think: "), notes[0]);
  assert(notes[0].includes("waits 500 ms") && notes[0].includes("Artillery 2.0.21"), notes[0]);
});

Deno.test("whole-second think times need no note", () => {
  const warnings: string[] = [];
  convert(SCRIPT.replace("think: 1.5", "think: 2"), warnings);
  assert(!warnings.some((w) => w.includes(FRACTIONAL_THINK)), warnings.join("\n"));
});

Deno.test("a loop of no steps is nothing to run, whatever its count: no billion-entry list", () => {
  const started = Date.now();
  const script = SCRIPT.replace("think: 1.5", "loop: []\n        count: 1000000000");
  const { experiment } = artilleryToExperiment(parse(script));
  const flows = experiment.flows as Array<{ steps: unknown[] }>;
  assertEquals(flows[0].steps.length, 2, JSON.stringify(flows[0]));
  assert(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
});

Deno.test("seconds past loadlab's longest duration are named at the script's own path", () => {
  // 1e308 seconds became "Infinityms", refused at loads.artillery.phases[0].duration and gracefulStop,
  // keys the script does not have, quoting a value it never wrote.
  const issues = issuesOf(`
config:
  target: http://127.0.0.1:8080
  phases: [{ duration: 1e308, arrivalRate: 1 }, { pause: "9000h" }]
scenarios:
  - flow: [{ get: { url: / } }, { think: 1e308 }]
`);
  assertEquals(issues.map((i) => i.path), [
    "config.phases[0].duration",
    "config.phases[1].pause",
    "scenarios[0].flow[1].think",
  ]);
  for (const i of issues) assert(/too long: at most 7 days \(168h\), e\.g\. 3600/.test(i.message), i.message);
  // Long thinks each within the limit: the graceful stop is held to it, not refused at a loadlab key.
  const thinks = Array.from({ length: 30 }, () => "{ think: 86400 }").join(", ");
  const { experiment } = artilleryToExperiment(parse(`
config: { target: http://127.0.0.1:8080, phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - flow: [{ get: { url: / } }, ${thinks}]
`));
  assertEquals((experiment.loads as any).artillery.gracefulStop, "604800000ms");
});

Deno.test("a strict: false capture is left out unless a template reads it: then a session captures it", () => {
  const script = (url: string) => `
config: { target: http://h:1, phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - flow:
      - get: { url: /me, capture: [{ json: $.nick, as: nick, strict: false }, { json: $.id, as: id }] }
      - get: { url: "${url}" }
`;
  const warnings: string[] = [];
  const flows = convert(script("/items/{{ id }}"), warnings).flows as Array<
    { steps: { capture?: unknown }[] }
  >;
  assertEquals(flows[0].steps[0].capture, [{ json: "$.id", as: "id" }]);
  assert(warnings.some((w) => w.includes("capture[0]: strict: false")), warnings.join("\n"));
  // Read later: Artillery's user goes on with it undefined when not found, as the session script's does.
  assert(convert(script("/items/{{ nick }}")).script !== undefined);
});

Deno.test("ifTrue on a capture is left to each session, variables written in; $loopCount counts from 0", () => {
  const head = "config: {target: http://x, phases: [{duration: 1, arrivalRate: 1}]}\nscenarios:\n  - flow:\n";
  const steps = `
      - get: { url: /a, capture: { json: $.id, as: id } }
      - get: { url: /b, ifTrue: 'id > low and kind != "a b"' }`;
  const issues = issuesOf(`${head}${steps}\n      - get: { url: /c, ifTrue: "x in (1, 2)" }`);
  assertEquals(issues.map((i) => i.path), ["scenarios[0].flow[2].get.ifTrue"]);
  assert(issues[0].message.startsWith("`in`, `~=` and `? :` are not decided here"), issues[0].message);
  const vars = head.replace("}\n", ', variables: {low: 3, kind: "x"}}\n');
  const converted = convert(`${vars}${steps}`).flows as Array<{ steps: Array<{ ifTrue?: string }> }>;
  assertEquals(converted[0].steps[1].ifTrue, 'id > (3) and "x" != "a b"');
  const [flow] = convert(
    `${head}      - loop: [{ get: { url: "/p{{ $loopCount }}", ifTrue: "$loopCount > 9" } }]
        count: 2`,
  ).flows as Array<{ steps: Array<{ get: { path: string } }> }>;
  // filtrex cannot read `$`: the request is sent, as Artillery sends it.
  assertEquals(flow.steps.map((s) => s.get.path), ["/p0", "/p1"]);
});

Deno.test("cookie, auth, parallel, a think template, $uuid and vusers thresholds convert as Artillery sends them", () => {
  const warnings: string[] = [];
  const exp = convert(
    `
config:
  target: http://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  http: { pool: 2 }
  variables: { pause: 2 }
  plugins: { ensure: {} }
  ensure: { conditions: [{ expression: vusers.failed == 0 and vusers.created > 1 }] }
scenarios:
  - flow:
      - get: { url: /a, cookie: { sid: abc, theme: dark }, auth: { user: ada, pass: s3cret }, gzip: true }
      - think: "{{ pause }}"
      - parallel:
          - get: { url: /b, followRedirect: false, headers: { x-id: "{{ $uuid }}" } }
          - get: { url: /c }
`,
    warnings,
  );
  const steps = (exp.flows as Array<{ steps: Array<Record<string, any>> }>)[0].steps;
  assertEquals(steps[0].get.headers, {
    cookie: "sid=abc; theme=dark",
    authorization: `Basic ${btoa("ada:s3cret")}`,
  });
  assertEquals(steps.slice(1).map((s) => s.think ?? s.get.path), ["2s", "/b", "/c"]);
  assertEquals(steps[2].get.headers, { "x-id": "{{ $uuid() }}" });
  // Redirects: got follows up to 10 (the flow's default); `followRedirect: false` follows none.
  assertEquals(steps.map((s) => s.maxRedirects), [undefined, undefined, 0, undefined]);
  assertEquals(checks(), [
    "vusers.failed == 0: vusers.failed == 0",
    "vusers.created > 1: vusers.created > 1",
  ]);
  for (const note of ["pool", "parallel", "$uuid", "cookie"]) {
    assert(warnings.some((w) => w.includes(note)), note + ": " + warnings.join("\n"));
  }
  const issues = issuesOf(`
config: { target: http://h:1, phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios: [{ flow: [{ get: { url: /a, followRedirect: "no", auth: { user: "{{ u }}", pass: x } } }] }]
`);
  assertEquals(issues.map((i) => i.path).sort(), [
    "scenarios[0].flow[0].get.auth.user",
    "scenarios[0].flow[0].get.followRedirect",
  ]);
});

Deno.test("a payload with another delimiter is read as Artillery splits it", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(`${dir}/skus.csv`, 'sku;note\nA-1;"big; red"\nB-2;x,y\n');
    const exp = convert(`
config:
  target: http://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  payload: { path: ${dir}/skus.csv, fields: [sku, note], delimiter: ";", skipHeader: true }
scenarios: [{ flow: [{ get: { url: "/s/{{ sku }}" } }] }]
`);
    const file = (exp.data as { payload: { file: string } }).payload.file;
    assertEquals(Deno.readTextFileSync(file), 'sku,note\nA-1,"big; red"\nB-2,"x,y"\n');
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("an unknown plugin is a note and the script runs; tls.rejectUnauthorized: false skips checks", () => {
  const warnings: string[] = [];
  const exp = convert(
    `
config:
  target: https://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  tls: { rejectUnauthorized: false }
  plugins: { publish-metrics: [{ type: datadog }], ensure: {} }
scenarios: [{ flow: [{ get: { url: /a } }] }]
`,
    warnings,
  );
  assertEquals((exp.loads as Record<string, Record<string, unknown>>).artillery.tls, { insecure: true });
  assert(
    warnings.some((w) => w.startsWith("config.plugins.publish-metrics: not run here")),
    warnings.join("\n"),
  );
  const plain = convert(`
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }], tls: { rejectUnauthorized: false } }
scenarios: [{ flow: [{ get: { url: /a } }] }]
`);
  assertEquals((plain.loads as Record<string, Record<string, unknown>>).artillery.tls, undefined);
});

Deno.test("an ensure condition may compare two metrics, each read by Artillery's name at the end", () => {
  convert(`
config:
  target: http://h:1
  phases: [{ duration: 1, arrivalRate: 1 }]
  plugins: { ensure: {} }
  ensure:
    conditions: [{ expression: "vusers.completed == vusers.created and http.codes.200 >= 2" }]
scenarios: [{ flow: [{ get: { url: /a } }] }]
`);
  assertEquals(checks(), [
    "vusers.completed == vusers.created: vusers.completed == vusers.created",
    "http.codes.200 >= 2: http.codes.200 >= 2",
  ]);
  // Without ensure in config.plugins, Artillery loads no ensure plugin: nothing is judged, as there.
  const warnings: string[] = [];
  convert(
    `
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }], ensure: { p99: 1 } }
scenarios: [{ flow: [{ get: { url: /a } }] }]
`,
    warnings,
  );
  assertEquals(checks(), []);
  assert(warnings.some((w) => w.startsWith("config.ensure: not judged")), warnings.join("\n"));
});

Deno.test("a top-level key Artillery does not read (YAML anchors' holder) is a note; its anchors are read", () => {
  const warnings: string[] = [];
  const exp = convert(
    `
x-headers: &common { x-client: loadtest }
config: { target: "http://h:1", phases: [{ duration: 1, arrivalRate: 1 }], defaults: { headers: *common } }
scenarios: [{ flow: [{ get: { url: /a, headers: { x-page: "1" } } }] }]
`,
    warnings,
  );
  const steps = (exp.flows as Array<{ steps: Array<Record<string, any>> }>)[0].steps;
  assertEquals(steps[0].get.headers, { "x-client": "loadtest", "x-page": "1" });
  assertEquals(warnings, [
    "x-headers: not read, as Artillery reads only config, scenarios, before and after",
  ]);
});

Deno.test("a selector capture runs the scenarios as a session script; caps stay with their phases", () => {
  const exp = convert(`
config:
  target: http://127.0.0.1:8080
  phases:
    - { duration: 2, arrivalRate: 3, maxVusers: 1 }
    - { duration: 2, arrivalRate: 2, maxVusers: 3 }
scenarios:
  - flow:
      - get: { url: /page, capture: { selector: "ul a", attr: href, index: 1, as: link } }
      - get: { url: "{{ link }}" }
`);
  assert(typeof exp.script === "string" && exp.flows === undefined, JSON.stringify(exp));
  const load = (exp.loads as Record<string, Record<string, unknown>>).artillery;
  // Each phase's cap is its own; every phase capped, the load's connections are capped by the largest.
  assertEquals([(load.phases as Record<string, unknown>[]).map((p) => p.maxBusy), load.maxConnections], [
    [1, 3],
    3,
  ]);
});
