/**
 * A k6 script's local modules, through `loadlab run script.js` against the built-in target: relative
 * imports (nested, `../` too) converted as the script is, their requests awaited where the script calls
 * them, their lines kept; a construct a module cannot have refused at the module's own file:line; a remote
 * module refused before the load, naming how to vendor it; a typed `.ts` k6 script run as k6 runs it (types
 * stripped), a syntax error refused at its line. A few iterations each.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once: their `loadlab` runs one at a time, in this process (`--summary-export`: a child). */
const pool = testPool(3);

const SCRIPT = `import { check } from "k6";
import { login, odd } from "./lib/auth.js";
export const options = { iterations: 4 };
export default function () {
  const token = login();
  check(token, { "logged in": (t) => t === "from /json" });
  if (__ITER === 1) odd();
}
`;

const FILES = {
  "lib/auth.js": `import http from "k6/http";
import { pathOf } from "./paths/names.js";
export function login() {
  const res = http.get(\`\${__ENV.BASE}\${pathOf("json")}\`);
  return res.status === 200 ? "from /json" : "failed";
}
export function odd() {
  throw new Error("odd iteration");
}
`,
  "lib/paths/names.js": `import { PREFIX } from "../config.js";
export const pathOf = (name) => PREFIX + name;
`,
  "lib/config.js": `export const PREFIX = "/";\n`,
};

pool.test("a k6 script's local modules (nested, ../) are converted: their requests awaited, lines kept", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(SCRIPT, null, ["-e", `BASE=${url}`], {
      inProcess: true,
      files: FILES,
    });
    ok(results !== null, text);
    const run = results.runs[0];
    const steps = Object.fromEntries(
      run.flows[0].steps.map((s: { label: string; requests: number }) => [s.label, s.requests]),
    );
    assertEquals(steps["GET /json"], 4, text);
    const checks = run.flows[0].steps.flatMap((s: { checks?: Array<{ name: string; passed: number }> }) =>
      (s.checks ?? []).map((c) => [c.name, c.passed])
    );
    assertEquals(checks, [["logged in", 4]], text);
    assertEquals(Object.keys(run.errorMessages?.script ?? {}), ["odd iteration (lib/auth.js:8)"], text);
    ok(code !== 2, text);
  }));

pool.test("a refused construct in a local module is named at the module's own file:line", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(SCRIPT, url, [], {
      inProcess: true,
      files: {
        ...FILES,
        "lib/paths/names.js": `import { browser } from "k6/browser";\nexport const pathOf = (n) => n;\n`,
      },
    });
    // k6's init error (a module it could not load), as k6 exits on an import it cannot resolve.
    assertEquals(code, 107, text);
    ok(text.includes("lib/paths/names.js:1: k6/browser drives a browser"), text);
  }));

pool.test("a remote module is refused before the load, naming how to vendor it", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import { thing } from "https://example.com/libs/thing/1.0.0/index.js";
export default function () { http.get("${url}/"); }
`;
    const { code, text } = await runK6Text(script, url, [], { inProcess: true });
    assertEquals(code, 107, text);
    ok(text.includes("script.js:2: https://example.com/libs/thing/1.0.0/index.js"), text);
    ok(text.includes("download it beside the script and import it by its relative path"), text);
  }));

pool.test("a vendored report library compiling its template with new Function() runs in handleSummary", () =>
  withTarget(async (url) => {
    // As k6-reporter's bundle.js, vendored beside the script: its template compiled by Function() (EJS).
    const library = `const compile = (t) => new Function("d", "return \`" + t + "\`;");
export function htmlReport(data) { return compile("<p>\${d.metrics.http_reqs.values.count} requests</p>")(data); }
`;
    const script = `import http from "k6/http";
import { htmlReport } from "./bundle.js";
export const options = { iterations: 2 };
export default function () { http.get("${url}/"); }
export function handleSummary(data) { return { "summary.html": htmlReport(data) }; }
`;
    const { code, text, dir } = await runK6Text(script, url, [], { files: { "bundle.js": library } });
    assertEquals(code, 0, text);
    assertEquals(Deno.readTextFileSync(`${dir}/summary.html`), "<p>2 requests</p>");
    // In a module holding a k6 API, code made from text could call it unconverted: refused at its line.
    const { code: refused, text: why } = await runK6Text(
      `import http from "k6/http";\nconst get = new Function("h", "return h.get('/')");\nexport default () => get(http);\n`,
      url,
      [],
      { inProcess: true },
    );
    assertEquals(refused, 107, why);
    ok(why.includes("script.js:2: Function() makes code from text"), why);
  }));

pool.test("the jslib modules teams import run offline: httpx's requests awaited, papaparse, url", () =>
  withTarget(async (url) => {
    const script = `import { check } from "k6";
import papaparse from "https://jslib.k6.io/papaparse/5.1.1/index.js";
import { URL } from "https://jslib.k6.io/url/1.0.0/index.js";
import { Httpx } from "https://jslib.k6.io/httpx/0.1.0/index.js";
import { randomItem } from "https://jslib.k6.io/k6-utils/1.5.0/index.js";
const users = papaparse.parse(open("./users.csv"), { header: true, skipEmptyLines: true }).data;
const session = new Httpx({ baseURL: __ENV.BASE, headers: { "X-Team": "qa" }, tags: { kind: "api" } });
export const options = { iterations: 3 };
export default function () {
  const at = new URL(\`\${__ENV.BASE}/json\`);
  at.searchParams.append("user", randomItem(users).name);
  const res = session.get(at.pathname + at.search);
  check(res, {
    "httpx 200": (r) => r.status === 200,
    "two users read": () => users.length === 2 && users[1].name === "bo, the second",
  });
}
`;
    const { code, text, results } = await runK6Text(script, null, ["-e", `BASE=${url}`], {
      inProcess: true,
      files: { "users.csv": 'name,age\nal,3\n"bo, the second",4\n' },
    });
    ok(results !== null, text);
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((
      s: { checks?: Array<{ name: string; passed: number }> },
    ) => (s.checks ?? []).map((c) => [c.name, c.passed]));
    assertEquals(checks, [["httpx 200", 3], ["two users read", 3]], text);
  }));

pool.test("a typed k6 script in a .ts file runs as k6 runs it, its .ts modules too; a syntax error at its line", () =>
  withTarget(async (url) => {
    const typed = `import http from "k6/http";
import { check } from "k6";
import type { Options } from "k6/options";
import { pathOf, type Named } from "./lib/paths.ts";
interface Body { [key: string]: unknown }
enum Kind { Json = "json" }
export const options: Options = { iterations: 3 };
export default function (): void {
  const res = http.get(__ENV.BASE + pathOf(Kind.Json as string));
  check(res, { ok: (r) => r.status === 200 && (r.json() as Body) !== null });
}
`;
    const files = {
      "lib/paths.ts":
        "export type Named = { name: string };\nexport const pathOf = (n: string): string => `/${n}`;\n",
    };
    const ran = await runK6Text(typed, null, ["-e", `BASE=${url}`], {
      inProcess: true,
      name: "script.ts",
      files,
    });
    assertEquals(ran.code, 0, ran.text);
    const steps = ran.results.runs[0].flows[0].steps;
    assertEquals(
      steps.map((s: { label: string; requests: number; checks: Array<{ passed: number }> }) => [
        s.label,
        s.requests,
        s.checks[0].passed,
      ]),
      [["GET /json", 3, 3]],
    );
    const broken = typed.replace("const res =", "const res: = ");
    const refused = await runK6Text(broken, null, ["-e", `BASE=${url}`], {
      inProcess: true,
      name: "script.ts",
      files,
    });
    assertEquals(refused.code, 107, refused.text);
    ok(refused.text.includes("script.ts:9: syntax error"), refused.text);
  }));

pool.test("a k6 script that imports only its own modules is known by its k6 options and runs as k6's", () =>
  withTarget(async (url) => {
    const script = `import { twice } from "./lib/twice.js";
export const options = { vus: 1, iterations: 3 };
export default function () {}
export function handleSummary(data) {
  return { stdout: "iterations " + twice(data.metrics.iterations.values.count) + "\\n" };
}
`;
    const files = { "lib/twice.js": "export const twice = (n) => 2 * n;\n" };
    const { code, text } = await runK6Text(script, url, [], { inProcess: true, files });
    assertEquals(code, 0, text);
    ok(text.includes("iterations 6"), text);
  }));

pool.test("a local module's default export may be data: a script's options kept in a module", () =>
  withTarget(async (url) => {
    const script = `import { check } from "k6";
import shared from "./lib/options.js";
export const options = shared;
export default function () { check(1, { ran: () => true }); }
`;
    const files = { "lib/options.js": "export default { vus: 1, iterations: 3 };\n" };
    const { code, text, results } = await runK6Text(script, url, [], { inProcess: true, files });
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: Array<{ passed: number }> }) =>
      (s.checks ?? []).map((c) => c.passed)
    );
    assertEquals(checks, [3], text);
  }));

pool.test("a script re-exports its options from a local module, as k6 runs it", () =>
  withTarget(async (url) => {
    const script = `import { check } from "k6";
export { default as options } from "./lib/options.js";
export default function () { check(1, { ran: () => true }); }
`;
    const files = { "lib/options.js": "export default { vus: 1, iterations: 3 };\n" };
    const { code, text, results } = await runK6Text(script, url, [], { inProcess: true, files });
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: Array<{ passed: number }> }) =>
      (s.checks ?? []).map((c) => c.passed)
    );
    assertEquals(checks, [3], text);
  }));

pool.test("a script naming no k6 module re-exports its scenarios from a local k6 module, as k6 runs it", () =>
  withTarget(async (url) => {
    // A starter's entry point: its options and scenario functions all come from `export *`.
    const script = `export * from "./scenarios/index.js";
export function setup() { return { name: "entry" }; }
export default (data) => { console.log(data.name); };
export function teardown(data) {}
`;
    const files = {
      "scenarios/index.js": `import { ping, options as one } from "./ping.js";
export const options = { scenarios: { ...one.scenarios } };
export { ping };
`,
      "scenarios/ping.js": `import http from "k6/http";
import { check } from "k6";
export const options = { scenarios: { ping: { exec: "ping", executor: "per-vu-iterations", iterations: 3 } } };
export const ping = () => check(http.get(\`\${__ENV.BASE}/\`), { "200": (r) => r.status === 200 });
`,
    };
    const { code, text, results } = await runK6Text(script, null, ["-e", `BASE=${url}`], {
      inProcess: true,
      files,
    });
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: Array<{ passed: number }> }) =>
      (s.checks ?? []).map((c) => c.passed)
    );
    assertEquals(checks, [3], text);
  }));

pool.test("a script that names no k6 module is k6's by its parameterless default or its thresholds object", () =>
  withTarget(async (url) => {
    const flags = ["-i", "2", "--summary-export", "sum.json"];
    const iterations = async (dir: string) =>
      JSON.parse(await Deno.readTextFile(`${dir}/sum.json`)).metrics.iterations.count;
    const crypto = `export default async function () {
  await crypto.subtle.digest("SHA-256", new Uint8Array([120]));
}
`;
    const plain = await runK6Text(crypto, url, flags);
    assertEquals(plain.code, 0, plain.text);
    assertEquals(await iterations(plain.dir), 2);
    const typed = `import { User, newUser } from "./user.ts";
export default () => {
  const user: User = newUser("John");
};
`;
    const user = `interface User { name: string }
function newUser(name: string): User { return { name }; }
export { User, newUser };
`;
    const ts = await runK6Text(typed, url, flags, {
      name: "script.ts",
      files: { "user.ts": user },
    });
    assertEquals(ts.code, 0, ts.text);
    assertEquals(await iterations(ts.dir), 2);
    // k6's thresholds are an object by metric (an experiment's are a list): a metric no one made is k6's 104.
    const unknown = `export const options = { thresholds: { "non existing": ["rate>0"] } };
export default function () {}
`;
    const refused = await runK6Text(unknown, url, flags);
    assertEquals(refused.code, 104, refused.text);
    // A file exporting nothing is no session (a session exports its default): its throw is k6's init error.
    const thrown = await runK6Text("someUndefinedVar\n", url, flags);
    assertEquals(thrown.code, 107, thrown.text);
  }));

pool.test("methods that send requests are awaited: an object's, a class's, a module's client object", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import client from "./lib/client.js";
import * as clientModule from "./lib/client.js";
class Pages {
  constructor(base) { this.base = base; }
  home() { return http.get(this.base + "/json"); }
  static status(res) { return res.status; }
  async twice() { this.home(); return this.home(); }
}
const api = { ping: (base) => http.get(base + "/"), run(base) { return this.ping(base); } };
export const options = { iterations: 2, thresholds: { checks: ["rate==1"], http_reqs: ["count==10"] } };
export default function () {
  const pages = new Pages(__ENV.BASE);
  const got = [Pages.status(pages.home()), api.run(__ENV.BASE).status, client(__ENV.BASE).get("/json").status];
  check(got, { "all answered": (g) => g.join() === "200,200,200", "default": () => clientModule.default === client });
  pages.twice();
}
`,
      null,
      ["-e", `BASE=${url}`],
      {
        inProcess: true,
        files: {
          "lib/client.js":
            `import http from "k6/http";\nexport default (base) => ({ get: (p) => http.get(base + p) });\n`,
        },
      },
    );
    assertEquals(code, 0, text);
    assertEquals(results.runs[0].requests, 10, text);
  }));

pool.test("a CommonJS k6 script runs as k6 runs it: require() of k6 modules, exports.options, module.exports", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `const http = require("k6/http");
const { check: expect, sleep } = require("k6");
exports.options = { iterations: 3, thresholds: { checks: ["rate==1"] } };
module.exports.default = function () {
  expect(http.get(__ENV.BASE + "/json"), { ok: (r) => r.status === 200 });
  sleep(0.01);
};
`,
      null,
      ["-e", `BASE=${url}`],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
    assertEquals(results.runs[0].requests, 3, text);
    const whole = await runK6Text(
      `const http = require("k6/http");
const options = { iterations: 2 };
module.exports = { options, default() { http.get(__ENV.BASE + "/json"); } };
`,
      null,
      ["-e", `BASE=${url}`],
      { inProcess: true },
    );
    assertEquals([whole.code, whole.results?.runs[0].requests], [0, 2], whole.text);
  }));

pool.test("a callback that sends requests, kept by a local module and called later, is awaited where called", () =>
  withTarget(async (url) => {
    const hooks = `const kept = [];
let last = null;
export function beforeEach(fn) {
  kept.push(fn);
  last = fn;
}
export function runBefore() {
  for (const h of kept) h();
  kept.forEach((h) => h());
  return last();
}
`;
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { beforeEach, runBefore } from "./lib/hooks.js";
beforeEach(() => http.get("http://app.test/json").status);
export const options = { iterations: 2, thresholds: { http_reqs: ["count==8"] } };
export default function () {
  if (runBefore() !== 200) throw new Error("the kept callback's value");
  http.get("http://app.test/json");
}
`,
      url,
      [],
      { inProcess: true, files: { "lib/hooks.js": hooks } },
    );
    assertEquals(code, 0, text);
    // Each iteration: the kept callback three times, then its own request, none refused as in flight.
    assertEquals(results.runs[0].requests, 8, text);
    assertEquals(results.runs[0].errorMessages ?? {}, {}, text);
  }));

pool.test("a callback handed to a method of an object a local module exports is awaited where it is run", () =>
  withTarget(async (url) => {
    const bus = `export const bus = {
  handlers: [],
  on(fn) { this.handlers.push(fn); },
  emit(name) { for (const h of this.handlers) h(name); },
};
class Hub { on(fn) { this.fn = fn; } }
export const hub = new Hub();
`;
    const script = (extra: string) =>
      `import http from "k6/http";
import { bus, hub } from "./lib/bus.js";
bus.on((name) => http.get("http://app.test/json?event=" + name));
${extra}export const options = { iterations: 2, thresholds: { http_reqs: ["count==4"] } };
export default function () {
  bus.emit("login");
  bus.emit("logout");
}
`;
    const { code, text, results } = await runK6Text(script(""), url, [], {
      inProcess: true,
      files: { "lib/bus.js": bus },
    });
    assertEquals(code, 0, text);
    assertEquals([results.runs[0].requests, results.runs[0].errorMessages ?? {}], [4, {}], text);
    // A class instance's method is not followed: refused before the load, naming the method.
    const refused = await runK6Text(script('hub.on(() => http.get("http://app.test/json"));\n'), url, [], {
      inProcess: true,
      files: { "lib/bus.js": bus },
    });
    ok(
      refused.code !== 0 && refused.stderr.includes("hub.on() is handed a callback that sends"),
      refused.text,
    );
  }));

Deno.test("a missing open() file is named by its path, the shell's PWD shown, a secret variable redacted", async () => {
  // PWD and OLDPWD name folders: every path under them would read as a secret. API_TOKEN is one.
  const script = `const data = open(__ENV.API_TOKEN + ".csv");\nexport default function () {}\n`;
  const out = await runK6Text(script, null, [], {
    env: { PWD: "/tmp", OLDPWD: "/tmp", API_TOKEN: "s3cr3t-9f" },
  });
  ok(out.code !== 0, out.text);
  ok(out.text.includes(`${out.dir}/[redacted 9 chars`), out.text);
  ok(!out.text.includes("s3cr3t-9f"), out.text);
});
