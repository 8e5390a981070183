/**
 * @module
 * k6 scripts as public repositories write them (bench/k6_verdicts/wild_*), each habit run through
 * `loadlab run` as its team runs it, reaching k6's verdict: a threshold's `delayAbortEval` without
 * `abortOnFail` (k6 reads it and waits by it only before an abort), CommonJS beside ES modules, a gRPC
 * server named by k6's `hosts`, a `--config` file that does not read, k6's default gracefulStop, a cut
 * socket. Loads are bounded counts.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runK6Text } from "./k6_run.ts";
import { withTarget } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";
import { GREETER_PROTO, nodeGreeterSkip, withNodeGreeter } from "./fixtures/node_greeter.ts";
import { startExamplesServer } from "../bench/k6_examples.ts";

/** Each case waits on its own run: three at once. */
const pool = testPool(3);

pool.test("delayAbortEval without abortOnFail runs, in milliseconds as a number, as k6 reads it", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
export const options = {
  thresholds: {
    http_req_duration: [{ threshold: "p(90) < 15000", abortOnFail: false, delayAbortEval: 100 }],
    http_reqs: [{ threshold: "count>0", delayAbortEval: "10s" }],
  },
};
export default function () { http.get("${url}/"); }
`,
      url,
      ["-i", "2"],
      { inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
  }));

pool.test("a TypeScript script's import of types only is dropped, its module never loaded, as k6's", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import { sleep, check } from 'k6'
import { Options } from 'k6/options'
import http from 'k6/http'

export const options: Options = { vus: 1, iterations: 2 }

export default () => {
  const res = http.get('${url}/')
  check(res, { 'status is 200': () => res.status === 200 })
  sleep(0.01)
}
`,
      url,
      [],
      { name: "order.ts", inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    ok(/checks_succeeded\.+: 100\.00% 2 out of 2/.test(run.text), run.text);
  }));

pool.test("a default export of data is no function: none exported fails to load (255), else no default (104)", () =>
  withTarget(async (url) => {
    const data = `import http from "k6/http";
export default { scenarios: { rate: { executor: "constant-arrival-rate", rate: 2000, duration: "30s" } } };
`;
    const none = await runK6Text(data, url, [], { inProcess: true });
    assertEquals(none.code, 255, none.text);
    ok(none.text.includes("script.js: does not load: no exported functions in script"), none.text);
    const setup = await runK6Text(`${data}export function setup() { http.get("${url}/"); }\n`, url, [], {
      inProcess: true,
    });
    assertEquals(setup.code, 104, setup.text);
    ok(setup.text.includes("no default function to run per iteration"), setup.text);
  }));

pool.test("a UMD module sets module.exports in a function: k6's CommonJS, its require() unreached", () =>
  withTarget(async (url) => {
    const umd = `(function (root, factory) {
  if (typeof define === "function" && define.amd) define([], factory);
  else if (typeof module === "object" && typeof exports !== "undefined") module.exports = factory();
  else root.Lib = factory();
})(this, function () {
  function nodeOnly() {
    return require("stream").Duplex;
  }
  return { twice: (n) => 2 * n, nodeOnly };
});
`;
    const run = await runK6Text(
      `import lib from "./lib/umd.js";
import http from "k6/http";
import { check } from "k6";
export default function () {
  const res = http.get("${url}/");
  check(res, { "twice": () => lib.twice(2) === 4 });
  try {
    lib.nodeOnly();
  } catch (e) {
    check(e, { "reached require throws": (e) => String(e).includes("init code only") });
  }
}
`,
      url,
      ["-i", "2"],
      { files: { "lib/umd.js": umd }, inProcess: true },
    );
    assertEquals(run.code, 0, run.text);
    ok(/checks_succeeded\.+: 100\.00% 4 out of 4/.test(run.text), run.text);
  }));

pool.test("flags' load replaces scenarios: a script with no default is k6's invalid config (104)", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
export const options = { scenarios: { auth: { executor: "ramping-vus", exec: "auth", stages: [{ duration: "20s", target: "20" }] } } };
export function auth() { http.get("${url}/"); }
`;
    const run = await runK6Text(script, url, ["-i", "1"], { inProcess: true });
    assertEquals(run.code, 104, run.text);
    ok(run.text.includes("executor default: function 'default' not found in exports"), run.text);
  }));

pool.test("a --config file missing, malformed or not an object is k6's invalid config (104)", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";\nexport default function () { http.get("${url}/"); }\n`;
    const files = { "bad.json": "{bad", "list.json": "[1]" };
    for (const config of ["missing.json", "bad.json", "list.json"]) {
      const run = await runK6Text(script, url, (dir) => ["-i", "1", "--config", `${dir}/${config}`], {
        files,
        inProcess: true,
      });
      assertEquals(run.code, 104, run.text);
      ok(run.text.includes(`${config}: `), run.text);
    }
  }));

pool.test("CommonJS beside ES modules as k6 runs them: a default import, and module or exports in ESM", () =>
  withTarget(async (url) => {
    const files = {
      "lib/object.js": "module.exports = { base: 1, twice: (n) => 2 * n };\n",
      "lib/fields.js": "exports.base = 2;\nexports.twice = (n) => 2 * n;\n",
      "lib/mixed.js": 'import http from "k6/http";\nexport const kept = 1;\nmodule.exports.extra = 2;\n',
    };
    const commonJs = `import http from "k6/http";
import { check } from "k6";
import object from "./lib/object.js";
import fields from "./lib/fields.js";
import { twice } from "./lib/object.js";
const sum = require("./lib/fields.js");
export default function () {
  http.get("${url}/");
  check(object, { "default of module.exports": (o) => o.twice(o.base) === 2 && twice(3) === 6 });
  check(fields, { "default of exports.x": (f) => f.twice(f.base) === 4 && sum.base === 2 });
}
`;
    const run = await runK6Text(commonJs, url, ["-i", "2"], { files, inProcess: true });
    assertEquals(run.code, 0, run.text);
    ok(/checks_succeeded\.+: 100\.00% 4 out of 4/.test(run.text), run.text);
    // k6 runs a file with import or export as an ES module: `module` there throws at its first read (107).
    const mixed = `import "./lib/mixed.js";\nexport default function () {}\n`;
    const refused = await runK6Text(mixed, url, ["-i", "1"], { files, inProcess: true });
    assertEquals(refused.code, 107, refused.text);
    ok(
      refused.text.includes('mixed.js:3: does not load: you are trying to access identifier "module"'),
      refused.text,
    );
  }));

const greeterSkip = nodeGreeterSkip("k6_wild_test");

pool.test(
  "a gRPC server k6's hosts name: the script's address kept, its calls dialled at the hosts' address",
  () =>
    withNodeGreeter(async (port) => {
      const script = `import grpc from "k6/net/grpc";
import { check } from "k6";
export const options = { hosts: { "greeter.test:5022": "127.0.0.1:${port}" } };
const client = new grpc.Client();
client.load([], "${GREETER_PROTO}");
export default () => {
  client.connect("greeter.test:5022", { plaintext: true });
  const response = client.invoke("helloworld.Greeter/SayHello", { name: "x" });
  check(response, { "status is OK": (r) => r && r.status === grpc.StatusOK });
  client.close();
};
`;
      const run = await runK6Text(script, null, ["-i", "2"], { inProcess: true });
      assertEquals(run.code, 0, run.text);
      ok(
        run.text.includes(
          `requests to http://greeter.test:5022 go to http://127.0.0.1:${port} (options.hosts)`,
        ),
        run.text,
      );
      ok(/checks_succeeded\.+: 100\.00% 2 out of 2/.test(run.text), run.text);
    }),
  { ignore: greeterSkip !== null },
);

pool.test("an iteration in flight at the duration's end gets k6's default gracefulStop (30 s)", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import { check, sleep } from "k6";
export const options = { vus: 1, duration: "1s" };
export default function () {
  http.get("${url}/");
  sleep(3.5);
  check(1, { "finished": () => true });
}
`;
    const run = await runK6Text(script, url, [], { inProcess: true });
    assertEquals(run.code, 0, run.text);
    ok(/iterations\.+: 1 /.test(run.text), run.text);
    ok(/checks_succeeded\.+: 100\.00% 1 out of 1/.test(run.text), run.text);
  }));

pool.test("a k6/ws session the run's end cuts interrupts its iteration: no code after ws.connect runs", () =>
  withTarget(async (url) => {
    const script = `import ws from "k6/ws";
import { check } from "k6";
export const options = {
  scenarios: { a: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "1s" } },
};
export default function () {
  const res = ws.connect("${url.replace("http", "ws")}/ws/echo", null, (socket) => {
    socket.on("open", () => socket.send("hi"));
    socket.setTimeout(() => socket.close(), 8000);
  });
  check(res, { "connected": (r) => r && r.status === 101 });
}
`;
    const run = await runK6Text(script, url, [], { inProcess: true });
    assertEquals(run.code, 0, run.text);
    ok(!run.text.includes("connected"), run.text);
    ok(/ws_sessions\.+: 1 /.test(run.text), run.text);
  }));

pool.test("an iteration that throws is timed in iteration_duration, as k6 times it", () =>
  withTarget(async (url) => {
    const script = `import http from "k6/http";
import { sleep } from "k6";
export const options = { iterations: 3, thresholds: { iteration_duration: ["max<40"] } };
export default function () {
  http.get("${url}/");
  sleep(0.05);
  throw new Error("boom");
}
`;
    const run = await runK6Text(script, url, [], { inProcess: true });
    // k6 v1.8.1: 99, its three iterations of 50 ms and more each timed.
    assertEquals(run.code, 99, run.text);
    ok(/iteration_duration\.+: avg=\d+(\.\d+)?ms min=([5-9]\d|\d{3,})/.test(run.text), run.text);
  }));

/**
 * The fourth wild trial's vendored scripts (bench/k6_verdicts/wild_*, their licences beside them), each with
 * k6 v1.8.1's exit code on its `// args:` line: the bench compares every part with k6 beside; here the code.
 */
const TRIAL4: Record<string, number> = {
  env_vars_json_log: 0,
  iteration_in_test_foo: 99,
  lifecycle_setup_data: 0,
  rps_stages_sample: 0,
  setup_abort_down: 108,
};

for (const [name, k6Code] of Object.entries(TRIAL4)) {
  pool.test(`wild_${name} exits ${k6Code}, as k6 v1.8.1 ran it`, async () => {
    // The script's server (127.0.0.1:18481) on a free port, named by k6's hosts option.
    const server = startExamplesServer();
    try {
      const url = new URL(`../bench/k6_verdicts/wild_${name}.js`, import.meta.url);
      const text = (await Deno.readTextFile(url)).replaceAll("127.0.0.1:18481", server.url.slice(7));
      const args = (/^\/\/ args:(.*)$/m.exec(text)?.[1] ?? "").trim().split(/\s+/).filter((a) => a !== "");
      const run = await runK6Text(text, null, args, { name: `wild_${name}.js` });
      assertEquals(run.code, k6Code, run.text);
    } finally {
      await server.shutdown();
    }
  });
}
