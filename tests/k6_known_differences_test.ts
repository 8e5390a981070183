/**
 * What k6 does that loadlab did otherwise, each run to k6's verdict: globals k6's JavaScript lacks (`URL`,
 * `btoa`, `fetch`, `__ITER` at init) throw its ReferenceError where they are read, unless the script's
 * polyfill sets one; a script's metric named as a built-in (`checks`, `vus`, a request phase) adds to it
 * (another kind or value type refused); a handleSummary answer with a value that is not text is written
 * nowhere, `--summary-export` included; `export { options, flow }` of a module's flow; abortOnFail on a
 * request duration's submetric; a local module's state per VU; an unjudged request's failed connect; an
 * iteration gracefulRampDown cuts; k6/experimental/csv. Against the built-in target; each load bounded in
 * count or time.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

const pool = testPool(3);

pool.test("globals k6 lacks throw its ReferenceError in VU code; typeof is undefined; a script's own is kept", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";
const after = new Counter("after_btoa");
const caught = new Counter("reference_errors");
function atob(s) { return "own:" + s; }
const [self] = ["me"];
class Location { constructor() { this.ok = true; } }
function greet({ name }) { return name; }
export const options = {
  iterations: 2,
  thresholds: { after_btoa: ["count==0"], reference_errors: ["count==6"], checks: ["rate==1"] },
};
export default function () {
  http.get("http://app.test/json");
  check(null, {
    "typeof": () => typeof URL === "undefined" && typeof TextEncoder === "undefined" && typeof fetch === "undefined",
    "own atob": () => atob("x") === "own:x",
    "own names": () => greet({ name: "n" }) === "n" && self === "me" && new Location().ok,
    "k6's kept": () => typeof setTimeout === "function" && typeof crypto === "object" && typeof JSON === "object",
  });
  for (const f of [() => new URLSearchParams("a=1"), () => structuredClone({})]) {
    try { f(); } catch (e) { if (e instanceof ReferenceError) caught.add(1); }
  }
  try { fetch("http://app.test/json"); } catch (e) { caught.add(e.message === "fetch is not defined" ? 1 : 0); }
  btoa("user:pass");
  after.add(1);
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("a polyfill of a global k6 lacks is the script's own, read in init and VU code, as under k6", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
if (typeof TextEncoder === "undefined") {
  globalThis.TextEncoder = class { encode(s) { return [...s].map((c) => c.charCodeAt(0)); } };
}
global["URL"] = function (href) { this.href = href; };
const base = new URL("http://app.test/").href;
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export default function () {
  http.get(base + "json");
  check(null, {
    "polyfilled": () => new TextEncoder().encode("ab").length === 2 && typeof URL === "function",
    "others still lacked": () => typeof btoa === "undefined" && globalThis.fetch === undefined,
  });
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

for (
  const [what, init] of [["URL", 'const base = new URL("http://app.test/");'], [
    "__ITER",
    "const i = __ITER;",
  ]]
) {
  pool.test(`${what} read by the init code throws k6's ReferenceError: exit 107 before the load`, () =>
    withTarget(async (url) => {
      const { code, text } = await runK6Text(
        `import http from "k6/http";\n${init}\nexport default function () { http.get("http://app.test/"); }\n`,
        url,
        [],
        { inProcess: true },
      );
      assertEquals(code, 107, text);
      ok(text.includes(`${what} is not defined`), text);
    }));
}

pool.test("a script's metrics named as built-ins add to them, as k6's", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check, sleep } from "k6";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";
const failed = new Rate("http_req_failed");
const reqs = new Counter("http_reqs");
const checks = new Rate("checks");
const vus = new Gauge("vus");
const waiting = new Trend("http_req_waiting", true);
const duration = new Trend("http_req_duration", true);
export const options = {
  iterations: 2,
  thresholds: {
    http_req_failed: ["rate>0.6", "rate<0.7"],
    http_reqs: ["count==4"],
    checks: ["rate>0.3", "rate<0.4"],
    http_req_waiting: ["max==5000"],
    http_req_duration: ["max==9000", "med<5000"],
    "http_req_duration{expected_response:true}": ["max<9000"],
  },
};
export default function () {
  http.get("http://app.test/json");
  failed.add(true);
  failed.add(true);
  reqs.add(1);
  check(1, { one: () => true });
  checks.add(false);
  checks.add(false);
  vus.add(50); // its value judged by the run's when the run lasts a second: accepted, not refused
  waiting.add(5000);
  duration.add(9000);
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

for (
  const [made, why] of [
    ['new Counter("data_received")', "metric 'data_received' already exists but with a value type data"],
    ['new Trend("http_reqs")', "metric 'http_reqs' already exists but with type counter"],
    [
      'new Trend("iteration_duration")',
      "metric 'iteration_duration' already exists but with a value type time",
    ],
  ]
) {
  pool.test(`${made} is refused as k6 refuses it: exit 107 naming why`, () =>
    withTarget(async (url) => {
      const { code, text } = await runK6Text(
        `import http from "k6/http";
import { Counter, Trend } from "k6/metrics";
const m = ${made};
export default function () { http.get("http://app.test/"); }
`,
        url,
        [],
        { inProcess: true },
      );
      assertEquals(code, 107, text);
      ok(text.includes(why), text);
    }));
}

pool.test("a handleSummary answer with a value that is not text writes nothing, --summary-export neither", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await runK6Text(
      `import http from "k6/http";
export const options = { iterations: 1 };
export default function () { http.get("http://app.test/"); }
export function handleSummary(data) { return { "text.txt": "x", "data.json": data, stdout: "SAID" }; }
`,
      url,
      (dir) => ["--summary-export", `${dir}/export.json`],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
    ok(text.includes("failed to handle the end-of-test summary: data.json: a value of type object"), text);
    ok(!text.includes("SAID"), text);
    assertEquals([existsSync(`${dir}/text.txt`), existsSync(`${dir}/export.json`)], [false, false]);
    ok(existsSync(`${dir}/out/results.json`), "the run's results kept");
  }));

pool.test("options and a module's flows exported by `export { ... }` run as the scenarios' execs", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import { browse } from "./lib/flows.js";
const options = {
  scenarios: { browsing: { executor: "per-vu-iterations", vus: 2, iterations: 2, exec: "browse" } },
  thresholds: { "http_reqs{flow:browse}": ["count==4"] },
};
export { options, browse };
`,
      url,
      [],
      {
        inProcess: true,
        files: {
          "lib/flows.js": `import http from "k6/http";
export function browse() { http.get("http://app.test/json", { tags: { flow: "browse" } }); }
`,
        },
      },
    );
    assertEquals(code, 0, text);
  }));

pool.test("abortOnFail on a request duration's submetric stops the run after its delay, as k6's: exit 99", () =>
  withTarget(async (url) => {
    const started = Date.now();
    const { code, text } = await runK6Text(
      `import http from "k6/http";
export const options = {
  vus: 1,
  duration: "60s",
  thresholds: {
    "http_req_duration{name:slow}": [{ threshold: "p(95)<50", abortOnFail: true, delayAbortEval: "1s" }],
  },
};
export default function () {
  http.get("http://app.test/json", { tags: { name: "fast" } });
  http.get("http://app.test/sleep?ms=200", { tags: { name: "slow" } });
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 99, text);
    ok(text.includes("http_req_duration{name:slow}"), text);
    // Stopped well before its 60 s, on a busy machine too.
    ok(Date.now() - started < 45_000, `${Date.now() - started} ms`);
  }));

pool.test("state a VU's code changes in the script's top level is that VU's own, as each k6 VU's", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
let count = 0, token = null;
const seen = new Set();
export const options = {
  scenarios: { each: { executor: "per-vu-iterations", vus: 3, iterations: 3 } },
  thresholds: { checks: ["rate==1"] },
};
export default function () {
  token ??= __VU;
  count++;
  seen.add(__ITER);
  http.get("http://app.test/json");
  check(null, { own: () => count === __ITER + 1 && token === __VU && seen.size === count });
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("state a VU's code changes in a local module's top level is that VU's own too", () =>
  withTarget(async (url) => {
    const lib = `let calls = 0, token = null;
export const seen = [];
export function next() { return ++calls; }
export const own = () => token;
export function keep(t) { token = t; }
`;
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import * as helpers from "./lib/state.js";
import { keep, next, own, seen } from "./lib/state.js";
export const options = {
  scenarios: { each: { executor: "per-vu-iterations", vus: 3, iterations: 3 } },
  thresholds: { checks: ["rate==1"] },
};
export default function () {
  if (own() === null) keep(__VU);
  seen.push(__ITER);
  http.get("http://app.test/json");
  check(null, { own: () => next() === __ITER + 1 && helpers.own() === __VU && seen.length === __ITER + 1 });
}
`,
      url,
      [],
      { inProcess: true, files: { "lib/state.js": lib } },
    );
    assertEquals(code, 0, text);
  }));

pool.test("an unjudged request that fails to connect is in no http_req_failed, as k6 writes it no sample", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
export const options = {
  iterations: 2,
  thresholds: { http_req_failed: ["rate==0"], "http_req_failed{name:beacon}": ["rate==0"], http_reqs: ["count==4"] },
};
export default function () {
  http.get("${url}/json");
  http.get("http://127.0.0.1:1/beacon", { responseCallback: null, tags: { name: "beacon" } });
}
`,
      null,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("an iteration gracefulRampDown cuts is no iteration and its requests stay, as k6 counts them", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus", startVUs: 2, gracefulRampDown: "0s", gracefulStop: "10s",
      stages: [{ duration: "1s", target: 2 }, { duration: "0s", target: 0 }, { duration: "1s", target: 0 }],
    },
  },
  thresholds: { iterations: ["count==0"], http_reqs: ["count==2"] },
};
export default function () {
  http.get("${url}/json");
  sleep(5);
}
`,
      null,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("k6/experimental/csv: parse's rows and objects, a Parser's rows per VU, the file's offset as k6 moves it", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import { open } from "k6/experimental/fs";
import csv from "k6/experimental/csv";
const rows = await csv.parse(await open("./people.csv"), { asObjects: true });
const lines = await csv.parse(await open("./people.csv"), { skipFirstLine: true, toLine: 1 });
const read = await open("./people.csv");
await csv.parse(read, { asObjects: true });
let again = "";
try { await csv.parse(read, { asObjects: true }); } catch (e) { again = e.message; }
const parser = new csv.Parser(await open("./people.csv"), { skipFirstLine: true });
export const options = {
  scenarios: { each: { executor: "per-vu-iterations", vus: 2, iterations: 3 } },
  thresholds: { checks: ["rate==1"] },
};
export default async function () {
  const { done, value } = await parser.next();
  http.get("http://app.test/json");
  check(null, {
    rows: () => JSON.stringify(rows) === '[{"age":"30","name":"Jo, Jr"},{"age":"25","name":"Ann"}]',
    lines: () => JSON.stringify(lines) === '[["Jo, Jr","30"]]' && again.endsWith("EOF"),
    "own parser": () => __ITER < 2 ? !done && value[0] === ["Jo, Jr", "Ann"][__ITER] : done && value.length === 0,
  });
}
`,
      url,
      [],
      { inProcess: true, files: { "people.csv": 'name,age\n"Jo, Jr",30\n\nAnn,25\n' } },
    );
    assertEquals(code, 0, text);
  }));

pool.test("json() of a discarded body throws; a summary shows only summaryTrendStats' stats, as k6's", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = {
  iterations: 2,
  discardResponseBodies: true,
  summaryTrendStats: ["avg", "p(99.9)"],
  thresholds: { checks: ["rate==1"], http_req_duration: ["p(95)<60000"] },
};
export default function () {
  const res = http.get("http://app.test/json");
  const kept = http.get("http://app.test/json", { responseType: "text" });
  let threw = "";
  try { res.json("a"); } catch (e) { threw = e.message; }
  check(null, { "null body": () => threw.startsWith("the body is null"), kept: () => kept.json() !== null });
}
export function handleSummary(data) {
  return { stdout: "STATS " + Object.keys(data.metrics.http_req_duration.values).sort().join(",") + "\\n" };
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
    ok(text.includes("STATS avg,p(99.9)"), text);
  }));

pool.test("a callback that sends requests handed to a local module's or the script's own function is awaited", () =>
  withTarget(async (url) => {
    const lib = `import { twice } from "./twice.js";
let cached = null;
export function withRetry(send, attempts) {
  let res = send();
  for (let i = 1; i < attempts && res.status !== 200; i++) res = send();
  return res;
}
export function token(login) { return cached ??= login().json("json"); }
export const both = (send) => twice(send);
`;
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import * as lib from "./lib/retry.js";
import { token, withRetry } from "./lib/retry.js";
export const options = { iterations: 2, thresholds: { http_reqs: ["count==13"], checks: ["rate==1"] } };
function timed(fn) { const r = fn(); return r.status; }
const missing = () => http.get("http://app.test/missing");
export default function () {
  const t = token(() => http.post("http://app.test/echo", JSON.stringify({ json: "abc" })));
  const ok = withRetry(() => http.get("http://app.test/json"), 3);
  const failed = lib.withRetry(missing, 2);
  const statuses = lib.both(() => http.get("http://app.test/json").status);
  const own = timed(() => http.get("http://app.test/json"));
  check(null, {
    "answers": () => t === "abc" && ok.status === 200 && failed.status === 404 && statuses.join() === "200,200",
    "own function": () => own === 200,
  });
}
`,
      url,
      [],
      {
        inProcess: true,
        files: { "lib/retry.js": lib, "lib/twice.js": "export const twice = (f) => [f(), f()];\n" },
      },
    );
    assertEquals(code, 0, text);
  }));

pool.test("hooks' custom metrics count; res.json() queries; maxDuration drops; any iteration percentile", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check, sleep } from "k6";
import { Counter } from "k6/metrics";
const hooks = new Counter("hooks");
export const options = {
  scenarios: { pool: { executor: "shared-iterations", vus: 1, iterations: 50, maxDuration: "1s", gracefulStop: "0s" } },
  thresholds: {
    hooks: ["count==2"], checks: ["rate==1"], dropped_iterations: ["count>30"],
    iteration_duration: ["p(50)>150", "p(99.9)<60000"],
  },
};
export function setup() { hooks.add(1); }
export default function () {
  const res = http.post("http://app.test/echo", JSON.stringify({ items: [{ id: 1, n: "a" }, { id: 2, n: "bc" }] }));
  check(res, {
    "query": (r) => r.json("items.#(id==2).n") === "bc" && r.json("items.#(id>0)#.n").join() === "a,bc",
    "like and none": (r) => r.json('items.#(n%"b*").id') === 2 && r.json("items.#(id==9).n") === undefined,
    // gjson: an array's keys are indexes and "#", an object's its own: no length, no constructor.
    "own keys": (r) => r.json("items.length") === undefined && r.json("items.0.constructor") === undefined &&
      r.json("items.#") === 2 && r.json("items.1.n") === "bc",
  });
  sleep(0.2);
}
export function teardown() { hooks.add(1); }
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("a slow setup() before a short load: k6 samples vus_max through it, so it is the VUs", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
export const options = { vus: 2, iterations: 2, thresholds: { vus_max: ["value==2"] } };
export function setup() { sleep(1.2); }
export default function () { http.get("http://app.test/json"); }
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("json() of a body that is no JSON throws k6's GoError at Go's line and character; a path gives undefined", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 1, thresholds: { checks: ["rate==1"] } };
export default function () {
  const at = (body, place, error) => {
    const res = http.post("http://app.test/echo", body);
    let thrown = "";
    try { res.json(); } catch (e) { thrown = String(e); }
    return () => res.json("a.b") === undefined &&
      thrown === \`GoError: cannot parse json due to an error at \${place} , error: \${error}\`;
  };
  check(null, {
    hello: at("hello", "line 1, character 1", "invalid character 'h' looking for beginning of value"),
    empty: at("", "line 1, character 0", "unexpected end of JSON input"),
    trail: at('{"a":1} x', "line 1, character 9", "invalid character 'x' after top-level value"),
    lines: at('{\\n  "a": 1,\\n  "b": tru\\n}', "line 4, character 1",
      "invalid character '\\\\n' in literal true (expecting 'e')"),
    cut: at('{"a": [1, 2', "line 1, character 11", "unexpected end of JSON input"),
    dot: at("1.", "line 1, character 2", "invalid character ' ' after decimal point in numeric literal"),
    quote: at("{'a':1}", "line 1, character 2", "invalid character '\\\\'' looking for beginning of object key string"),
    tab: at('"a\\tb"', "line 1, character 3", "invalid character '\\\\t' in string literal"),
    utf8: at('{"é": é}', "line 1, character 7", "invalid character 'Ã' looking for beginning of value"),
  });
}
`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));
