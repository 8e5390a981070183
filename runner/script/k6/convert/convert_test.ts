/**
 * The k6 conversion on source text: which calls are awaited and which functions become async (API calls,
 * the script's own functions that reach them, group bodies, array callbacks), that every line keeps its
 * number, and that what cannot be awaited is refused with file:line and why.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { convertK6, isK6Source, K6ConvertError } from "./convert.ts";

const convert = (source: string) => convertK6(source, "t.js", "/scripts").code;
/** An awaited call's opening: its VU is current again once it resumes. */
const A = "__k6.back(__k6.context(), await ";
/** An awaited call's opening in a script that hands callbacks off: the call holds its iteration. */
const H = "(await __k6.held(";

/** The converted text's lines after the header, without the footer. */
const body = (code: string) =>
  code.split("\n").slice(0, -2).join("\n").replace(
    /^import \* as __k6 [^;]+; __k6\.scriptDir\([^)]*\); /,
    "",
  );

Deno.test("k6 calls and the script's own functions that reach them are awaited", () => {
  const code = body(convert(`import http from "k6/http";
import { sleep } from "k6";
function fetchIt(u) { return http.get(u).status; }
export default function () {
  const s = fetchIt("http://h/a");
  sleep(1);
}`));
  ok(code.includes(`async function fetchIt(u) { return ${A}http.get(u)).status; }`), code);
  ok(code.includes(`const __k6_main = async function () {`), code);
  ok(code.includes(`const s = ${A}fetchIt("http://h/a"));`), code);
  ok(code.includes(`${A}sleep(1));`), code);
  ok(code.includes(`from "file://`) && code.includes(`/runner/script/k6/http.ts"`), code);
});

Deno.test("group bodies and array callbacks become async; array methods run one element at a time", () => {
  const code = body(convert(`import http from "k6/http";
import { group, check } from "k6";
export default () => {
  group("g", () => {
    const codes = ["/a", "/b"].map((p) => http.get("http://h" + p).status);
    check(codes, { "all 200": (c) => c.every((x) => x === 200) });
  });
};`));
  ok(code.includes(`${A}group("g", async () => {`), code);
  ok(
    code.includes(
      `const codes = ${A}__k6.array("map", ["/a", "/b"], async (p) => ${A}http.get("http://h" + p)).status));`,
    ),
    code,
  );
  // The check's own callback sends nothing: left as it is.
  ok(code.includes(`check(codes, { "all 200": (c) => c.every((x) => x === 200) });`), code);
  // A promise the script chains on (`.then`) is its own: not awaited, its callback left as it is.
  const chained = body(convert(`import http from "k6/http";
export default async () => {
  const ids = await Promise.all([1, 2].map((n) => http.asyncRequest("GET", "http://h/" + n).then((r) => r.status)));
};`));
  ok(
    chained.includes(
      `[1, 2].map((n) => __k6.chained(http.asyncRequest("GET", "http://h/" + n)).then((r) => r.status))`,
    ),
    chained,
  );
  // Array.from's mapping function: a map over the array it makes.
  const from = body(convert(`import http from "k6/http";
export default () => Array.from({ length: 2 }, (_, i) => http.get("http://h/" + i));`));
  ok(
    from.includes(
      `${A}__k6.array("map", Array.from({ length: 2 }), async (_, i) => ${A}http.get("http://h/" + i))))`,
    ),
    from,
  );
});

Deno.test("every line keeps its number, also where a replaced span broke lines", () => {
  const source = `import http from "k6/http";
const xs = [1, 2];
export default function () {
  xs
    .forEach((x) => http.get("http://h/" + x));
  throw new Error("line 6");
}`;
  const lines = convert(source).split("\n");
  ok(lines[5].includes(`throw new Error("line 6")`), lines.join("\n"));
  ok(lines[0].includes("import http from"), lines[0]);
});

Deno.test("what cannot be awaited is refused with file:line and why", () => {
  const refused = (source: string) => {
    try {
      convert(source);
    } catch (err) {
      ok(err instanceof K6ConvertError);
      return err.problems;
    }
    throw new Error("not refused");
  };
  const head = `import http from "k6/http";\nimport { check } from "k6";\n`;
  assertEquals(refused(head + `JSON.parse("[]", (k, v) => http.get("http://h/" + k));`), [
    "t.js:3: a callback that sends requests is handed to parse(): loadlab cannot await where it is called",
  ]);
  assertEquals(refused(head + `function f() { http.get("http://h/"); }\nconst g = f;`), [
    "t.js:4: f sends requests and is used as a value here: loadlab awaits only direct calls",
  ]);
  assertEquals(
    refused(
      `import { browser } from "k6/browser";\nimport { x } from "https://jslib.k6.io/x.js";\n` +
        `import redis from "k6/experimental/redis";`,
    ),
    [
      "t.js:1: k6/browser drives a browser; loadlab's sessions send HTTP requests only",
      "t.js:2: https://jslib.k6.io/x.js: loadlab fetches no remote module (it runs offline; of jslib.k6.io it " +
      "ships k6-utils, k6-summary, papaparse, url and httpx): download it beside the script and import it " +
      "by its relative path (./name.js)",
      "t.js:3: k6/experimental/redis sends Redis commands, which loadlab's sessions do not: run this script " +
      "with k6, or put Redis behind the app as a target (docs/TARGETS.md)",
    ],
  );
  // Both names of k6/websockets and k6/experimental/fs convert.
  convert(
    `import { WebSocket } from "k6/experimental/websockets";\nimport { open } from "k6/experimental/fs";\n` +
      `import { WebSocket as W } from "k6/websockets";`,
  );
  // A VU's tags and metadata convert (the metadata goes on `--out json`'s points).
  convert(
    `import exec from "k6/execution";\nexport default function () {\n  exec.vu.tags.tier = "gold";\n` +
      `  exec.vu.metrics.metadata.trace = "x";\n}`,
  );
  throws(
    () => convert("export default function ( {"),
    /^K6ConvertError: cannot run this k6 script: t.js:1: /,
  );
});

Deno.test("a default export named elsewhere; a named method that sends requests awaited, a getter's refused", () => {
  const code = convert(`import http from "k6/http";
function main() { http.get("http://h/"); }
export { main as default };`);
  ok(code.includes(`async function main() { ${A}http.get("http://h/")); }`), code);
  ok(code.includes("const __k6_main = main;"), code);
  // One default export, the runtime's: the script's own specifier made a second (a module that did not load).
  assertEquals(code.match(/export default|as default/g), ["export default"], code);
  const both = convert(`import http from "k6/http";
const options = { iterations: 1 };
function main() { http.get("http://h/"); }
export { main as default, options };`);
  assertEquals(both.match(/export default|as default/g), ["export default"], both);
  ok(both.includes("export { options };") && both.includes("exports: { options }"), both);
  const method = convert(`import http from "k6/http";
const api = { load() { return http.get("http://h/"); } };
export default function () { api.load(); }`);
  ok(method.includes(`{ async load() { return ${A}http.get("http://h/")); } }`), method);
  ok(method.includes(`${A}api.load());`), method);
  throws(
    () =>
      convert(`import http from "k6/http";\nconst api = { get load() { return http.get("http://h/"); } };`),
    /t\.js:2: a getter, setter, computed method or one of an object handed to a call sends requests/,
  );
  // JavaScript has no await in a parameter's default: the converted module did not load.
  throws(
    () => convert(`import http from "k6/http";\nfunction f(r = http.get("http://h/")) { return r; }`),
    /t\.js:2: a call that sends or waits in a parameter's default value cannot be awaited there/,
  );
});

Deno.test("k6's utility and summary libraries are served locally, not fetched", () => {
  const code = convert(`import { randomIntBetween } from "https://jslib.k6.io/k6-utils/1.4.0/index.js";
import { textSummary } from "https://jslib.k6.io/k6-summary/0.0.2/index.js";`);
  ok(
    code.includes(`/runner/script/k6/jslib/utils.ts"`) &&
      code.includes(`/runner/script/k6/jslib/summary.ts"`),
    code,
  );
});

Deno.test("a k6 script is told from a session script by its imports", () => {
  ok(isK6Source(`import http from "k6/http";`));
  ok(isK6Source(`import { sleep } from "k6";`));
  ok(!isK6Source(`export default async (s) => { await s.get("/"); };`));
  ok(!isK6Source(`import x from "./k6.js";\nexport default async (s) => {};`));
});

Deno.test("a k6/net/grpc client's calls are awaited, by default import or named class, declared or assigned", () => {
  const code = body(convert(`import grpc from "k6/net/grpc";
import { Client } from "k6/net/grpc";
const client = new grpc.Client();
let other;
client.load([], "a.proto");
function call() { return client.invoke("p.S/M", {}); }
export default () => {
  other = new Client();
  client.connect("h:1", { plaintext: true });
  const r = call();
  other.healthCheck();
  client.close();
};`));
  ok(code.includes(`client.load([], "a.proto");`), code);
  // k6/net/grpc's streams run later, from events: each awaited call holds the iteration.
  ok(code.includes(`async function call() { return ${H}client.invoke("p.S/M", {}))); }`), code);
  ok(code.includes(`${H}client.connect("h:1", { plaintext: true })));`), code);
  ok(code.includes(`const r = ${H}call(), false));`), code);
  ok(code.includes(`${H}other.healthCheck()));`), code);
  ok(code.includes(`  client.close();`) && !code.includes(`${H}client.close())`), code);
  ok(code.includes(`/runner/script/k6/grpc.ts"`), code);
});

Deno.test("the script's own awaits hand its VU back, and catch and finally blocks restore it", () => {
  const code = convert(`import http from "k6/http";
export default async function () {
  try {
    await Promise.all([http.get("http://h/a")]);
  } catch (e) {
    http.get("http://h/failed");
  } finally {
    http.get("http://h/done");
  }
}`);
  ok(code.includes(`const __k6_main = async function () {const __k6c = __k6.context(); `), code);
  ok(code.includes(`__k6.back(__k6.context(), await Promise.all([${A}http.get(`), code);
  ok(code.includes(`} catch (e) {__k6.back(__k6c); `), code);
  ok(code.includes(`} finally {__k6.back(__k6c); `), code);
  ok(code.includes(`resumes: true, metrics: false });\n`), code);
});

Deno.test("asyncRequest stays the script's promise: sent at once, held as a chained call", () => {
  const code = convert(`import http from "k6/http";
export default async function () {
  await Promise.race([http.asyncRequest("GET", "http://h/slow"), http.asyncRequest("GET", "http://h/fast")]);
}`);
  ok(
    code.includes(`Promise.race([__k6.chained(http.asyncRequest("GET", "http://h/slow")), __k6.chained(`),
    code,
  );
  ok(code.includes(`resumes: false, metrics: false, sendsLater: true });`), code);
});

Deno.test("a script handing callbacks over to run later keeps a context per iteration", () => {
  for (
    const later of [
      `http.asyncRequest("GET", "http://h/").then((r) => check(r, { ok: (x) => x.status === 200 }));`,
      `setTimeout(() => check(1, { one: (x) => x === 1 }), 10);`,
    ]
  ) {
    const code = convert(`import http from "k6/http";
import { check } from "k6";
export default function () { http.get("http://h/"); ${later} }`);
    ok(code.includes(`{ ${H}http.get("http://h/"))); `), code);
    ok(!code.includes("__k6.back(") && code.includes(`resumes: false,`), code);
  }
});

Deno.test("a readable conversion skips nothing", () => {
  const get = `import http from "k6/http";\nexport default function () { const r = http.get("http://h/"); `;
  const readable = convertK6(get + "}", "t.js", "/scripts", true).code;
  ok(readable.endsWith("exports: {  } });\n") && readable.includes("(await http.get("), readable);
});

Deno.test("timers reached as a property, and a class method's catch, are seen", () => {
  const head = `import http from "k6/http";\n`;
  const timer = convert(
    head + `export default function () { http.get("http://h/"); globalThis.setTimeout(() => 1, 5); }`,
  );
  ok(timer.includes("resumes: false,"), timer);
  const method = convert(
    head + `class A { async m() { try { await 1; } catch (e) { return __VU; } } }\n` +
      `export default function () { http.get("http://h/"); }`,
  );
  ok(method.includes(`async m() {const __k6c = __k6.context();  try {`), method);
  ok(method.includes(`catch (e) {__k6.back(__k6c);  return __VU;`), method);
});

Deno.test("a named default function stays callable by its name from the script's other functions", async () => {
  const code = convert(`import http from "k6/http";
export default function main() { http.get("http://h/"); return 1; }
export function twice() { return main() + main(); }`);
  ok(
    code.includes(`async function main() { ${A}http.get("http://h/")); return 1; } const __k6_main = main;`),
    code,
  );
  ok(code.includes(`export async function twice() { return ${A}main()) + ${A}main()); }`), code);
  // Loaded as the workers load it: a scenario's function calling main() found no such name.
  const file = Deno.makeTempFileSync({ suffix: ".js" });
  Deno.writeTextFileSync(
    file,
    convert(`export default function main() { return 1; }
export function other() { return main() + 1; }`),
  );
  const mod = await import(`file://${file}`);
  assertEquals(mod.other(), 2);
  Deno.removeSync(file);
});

Deno.test("a function k6's event loop runs later may send: each call it makes holds the iteration", () => {
  const code = body(convert(`import http from "k6/http";
import { check } from "k6";
import timers from "k6/timers";
async function late(n) { await http.get("http://h/late" + n); }
export default function () {
  http.asyncRequest("GET", "http://h/a").then((r) => http.get("http://h/b")).catch(() => http.get("http://h/c"));
  setTimeout(() => http.get("http://h/t"), 10);
  timers.setInterval(() => http.get("http://h/i"), 10);
  setTimeout(late, 5, 1);
  new Promise((resolve) => resolve(http.get("http://h/p")));
  (async () => { await http.post("http://h/iife"); })();
}`));
  ok(
    code.includes(`__k6.chained(http.asyncRequest("GET", "http://h/a")).then(async (r) => ${H}http.get`),
    code,
  );
  ok(code.includes(`.catch(async () => ${H}http.get("http://h/c"))));`), code);
  ok(code.includes(`setTimeout(async () => ${H}http.get("http://h/t"))), 10);`), code);
  ok(code.includes(`timers.setInterval(async () => ${H}http.get("http://h/i"))), 10);`), code);
  ok(code.includes(`async function late(n) { await ${H}http.get("http://h/late" + n))); }`), code);
  ok(code.includes(`new Promise(async (resolve) => resolve(${H}http.get("http://h/p")))));`), code);
  ok(code.includes(`(async () => { await ${H}http.post("http://h/iife"))); })();`), code);
  // The iteration's function sends nothing itself: it stays synchronous, what it handed off holds it.
  ok(code.includes(`const __k6_main = function () {`), code);
  // The global timer is k6/timers' (its iteration waits for it); a script's own declaration is its own.
  const timed = convert(`export default function () { setTimeout(() => 1, 5); }`);
  ok(/import \{ setTimeout, [^}]*\} from "[^"]*timers\.ts"/.test(timed), timed);
  const own = convert(`const setTimeout = (f) => f();\nexport default function () { setTimeout(() => 1); }`);
  ok(
    /import \{ setInterval, [^}]*\} from "[^"]*timers\.ts"/.test(own) && !/setTimeout[^;]*timers/.test(own),
    own,
  );
  // No hand-off: awaits hand the VU back and hold nothing.
  const plain = convert(`import http from "k6/http";\nexport default function () { http.get("http://h/"); }`);
  ok(!plain.includes("__k6.held(") && plain.includes("resumes: true"), plain);
});
