/**
 * Hostile and unsupported k6 scripts refused by the conversion, each with `file:line` and why: a syntax
 * error (still read as a k6 script), code made from text, `require`, dynamic `import()`, k6 calls at the
 * top level, a default export that is not a function, a bare module name, and nesting too deep for a
 * parser's stack; what must still convert (a shadowed `eval`, open() in a SharedArray's function) does.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { convertK6, isK6Source, K6ConvertError } from "./convert.ts";
import { MAX_NESTING } from "./refusals.ts";

const HEAD = `import http from "k6/http";\nimport { sleep, group } from "k6";\n`;

/** The problems converting `body` (after two import lines) gives, or [] when it converts. */
function problems(body: string): string[] {
  try {
    convertK6(HEAD + body, "t.js", "/scripts");
    return [];
  } catch (err) {
    if (!(err instanceof K6ConvertError)) throw err;
    return err.problems;
  }
}

/** Asserts one problem at `line` whose words match `why`. */
function refused(body: string, line: number, why: RegExp): void {
  const found = problems(body);
  assertEquals(found.length, 1, found.join("\n"));
  ok(found[0].startsWith(`t.js:${line}: `) && why.test(found[0]), found[0]);
}

Deno.test("a k6 script with a syntax error is still a k6 script, its error at its line", () => {
  const broken = HEAD + `export default function () {\n  with (http) { get("/"); }\n}\n`;
  ok(isK6Source(broken));
  ok(isK6Source(`import http from "k6/http";\nexport default function () { http.get("/" ; }`));
  ok(!isK6Source(`import x from "./k6.js";\nexport default function () { (`));
  refused(`export default function () {\n  with (http) { get("/"); }\n}\n`, 4, /syntax error: .*strict mode/);
  refused(`export default function () { http.get("/" ; }`, 3, /syntax error: Unexpected token/);
});

Deno.test("code from text, require, dynamic import: refused at their lines", () => {
  refused(`export default function () {\n  eval("http.get('/')");\n}`, 4, /eval\(\) makes code from text/);
  refused(`const f = new Function("return 1");\nexport default function () {}`, 3, /Function\(\) makes code/);
  // At the top level only: one in a function throws if called, as k6's after its init code.
  refused(
    `console.log(require("k6/http"));\nexport default function () {}`,
    3,
    /a require\(\) other than `const/,
  );
  assertEquals(problems(`export default function () {\n  const h = require("k6/http");\n}`), []);
  refused(
    `export default async function () {\n  const m = await import("k6/http");\n}`,
    4,
    /dynamic import\(\) is not converted: use a static import at the top of the script \(import http from "k6\/http"\)/,
  );
  // A function of the script's own named eval is only a function.
  assertEquals(
    problems(`function eval2() {}\nconst require = (x) => x;\nexport default function () { require(1); }`),
    [],
  );
});

Deno.test("for await and async generators, which k6's parser refuses: refused at their lines", () => {
  const waited =
    `export default async function () {\n  for await (const r of [http.asyncRequest("GET", "/")]) {}\n}`;
  refused(waited, 4, /parses no `for await`, so k6 refuses the script/);
  refused(
    `const o = { async *pages() { yield 1; } };\nexport default function () {}`,
    3,
    /no async generator/,
  );
  refused(`class P { async *pages() {} }\nexport default function () {}`, 3, /no async generator/);
  // A generator that is not async, and a plain loop awaiting each promise, k6 runs.
  assertEquals(
    problems(
      `function* g() { yield 1; }\nexport default async function () {\n` +
        `  for (const p of [http.asyncRequest("GET", "/")]) await p;\n  [...g()];\n}`,
    ),
    [],
  );
});

Deno.test("a script naming k6 only by import() or require() is a k6 script, refused at that line", () => {
  const dynamic = `export default async function () {\n  const http = await import("k6/http");\n}\n`;
  ok(isK6Source(dynamic));
  ok(isK6Source("const http = require(`k6/http`);\nexport default function () {}\n"));
  ok(isK6Source(`export { sleep } from "k6";\nexport default function () {}\n`));
  // The same, in a script that does not parse: its tokens tell.
  ok(isK6Source(`const k = await import("k6");\nexport default function () { (`));
  ok(isK6Source(`const h = require("k6/http");\nexport default function () { (`));
  // Other modules, and k6 named outside a module specifier, are not k6.
  ok(
    !isK6Source(
      `const m = await import("./k6/x.js");\nconst s = "k6/http";\nexport default async (s) => {};\n`,
    ),
  );
  ok(!isK6Source(`const m = require(name);\nexport default async (s) => {};\n`));
  let found: string[] = [];
  try {
    convertK6(dynamic, "dyn.js", "/tmp");
  } catch (err) {
    if (!(err instanceof K6ConvertError)) throw err;
    found = err.problems;
  }
  assertEquals(found.length, 1, found.join("\n"));
  ok(/^dyn\.js:2: a dynamic import\(\) is not converted: use a static import/.test(found[0]), found[0]);
});

Deno.test("k6 calls at the top level (k6's init context) are refused; open() inside a function is not", () => {
  refused(`const r = http.get("http://h/");\nexport default function () {}`, 3, /top level .*setup\(\)/);
  refused(`sleep(1);\nexport default function () {}`, 3, /init context/);
  refused(`group("g", () => {});\nexport default function () {}`, 3, /init context/);
  assertEquals(
    problems(
      `const rows = [1].map(() => open("./a.txt"));\nexport default function () { http.get("http://h/"); }`,
    ),
    [],
  );
});

Deno.test("a default export that is not a function converts: the runtime says what k6 says of it", () => {
  for (const value of ["{ a: 1 }", "42", "[]", "`x`", "class {}", "-1", "() => {}"]) {
    assertEquals(problems(`export default ${value};`), []);
  }
});

Deno.test("a bare module name is refused, naming the fix", () => {
  refused(`import _ from "lodash";\nexport default function () {}`, 3, /lodash: a bare module name/);
});

Deno.test("nesting past the limit is refused at its line without overflowing any stack", () => {
  const nested = (depth: number, open: string, close: string) =>
    `export default function () {\n  const x = ${open.repeat(depth)}${close.repeat(depth)};\n}`;
  // A chain the parser reads in a loop but whose tree is 100,000 deep: later walks would overflow.
  refused(nested(1, `[${"http.x".repeat(1)}${".y".repeat(100_000)}`, "]"), 4, /nested more than 400 levels/);
  refused(nested(1, `[http.x${"()".repeat(50_000)}`, "]"), 4, /nested more than 400 levels/);
  // Nesting the parser itself recurses on: its own limit, read as nesting, at the line.
  refused(nested(20_000, "[", "]"), 4, /nested too deep to parse/);
  refused(nested(3_000, "(() => {", "})()"), 4, /nested too deep to parse/);
  // What real scripts nest (objects of options, a few callbacks) converts.
  assertEquals(problems(nested(MAX_NESTING / 8, "[", "]")), []);
});

Deno.test("group and check names holding k6's group separator :: convert: k6 throws at the call, not before", () => {
  assertEquals(problems(`export default function () {\n  group("a::b", () => {});\n}`), []);
  assertEquals(
    problems(`import { check } from "k6";\nexport default function () { check(1, { "c::d": 1 }); }`),
    [],
  );
});

Deno.test("a k6 API reached other than by a direct call is refused: its calls would go unawaited", () => {
  const body = (line: string) => `export default function () {\n  ${line}\n}`;
  refused(
    `const get = http.get;\n${body(`get("http://h/");`)}`,
    3,
    /http\.get is reached here other than by a direct call/,
  );
  refused(body(`http["get"]("http://h/");`), 4, /http\.get is reached here other than by a direct call/);
  refused(
    `const { get } = http;\n${body(`get("http://h/");`)}`,
    3,
    /http \(k6\/http\) is used as a value here/,
  );
  refused(
    `function login(h) { h.post("http://h/"); }\n${body("login(http);")}`,
    5,
    /http \(k6\/http\) is used as a value/,
  );
  refused(body("const nap = sleep;\n  nap(1);"), 4, /sleep \(k6\) is used as a value here.*sleep\(\.\.\.\)/);
  // A namespace import's .default is the module again: `ns.default.get(u)` was sent unawaited, its
  // response a promise every check failed on, the run otherwise clean.
  const ns = 'import * as ns from "k6/http";\n';
  refused(
    `${ns}const { get } = ns.default;\n${body(`get("http://h/");`)}`,
    4,
    /ns\.default is k6\/http itself/,
  );
  refused(`${ns}${body(`ns.default.get("http://h/");`)}`, 5, /ns\.default is k6\/http itself/);
  assertEquals(problems(`${ns}${body(`ns.get("http://h/");`)}`), []);
  // A member picked by a name computed as the script runs may be any call: refused; a static one is judged.
  refused(
    `const m = "get";\n${body(`http[m]("http://h/");`)}`,
    5,
    /http\[\.\.\.\] picks a member of k6\/http/,
  );
  refused(body('http[`get`]("http://h/");'), 4, /http\.get is reached here other than by a direct call/);
  assertEquals(problems(body('const u = http["url"];')), []);
});

Deno.test("a k6 call in a class field or static block is refused at its line: no await can go there", () => {
  const body = (line: string) => `export default function () {\n  ${line}\n}`;
  refused(body('class A { r = http.get("http://h/"); }'), 4, /class field or static block cannot be awaited/);
  refused(body("class A { static { sleep(1); } }"), 4, /class field or static block cannot be awaited/);
  // A computed key is evaluated in the enclosing function, where await is allowed.
  assertEquals(problems(body('class A { [http.get("http://h/").status] = 1; }')), []);
  // Direct calls, optional ones, and what is not asynchronous pass.
  assertEquals(
    problems(body(`http.get?.("http://h/"); sleep(1); const u = http.url; group("g", () => {});`)),
    [],
  );
});

Deno.test("a script refused in thousands of places lists the first 20 and counts the rest", () => {
  // A 5.6 MB script of 60,000 such places spent minutes finding each place's line from the start of the
  // text, to print a line of megabytes.
  const body = Array.from({ length: 5_000 }, (_, i) => `const f${i} = () => eval("1");`).join("\n") +
    "\nexport default function () {}\n";
  const found = problems(body);
  assertEquals(found.length, 21);
  ok(found[0].startsWith("t.js:3: eval() makes code from text"), found[0]);
  ok(found[19].startsWith("t.js:22: "), found[19]);
  assertEquals(found[20], "and 4,980 more places of the same kinds (fix these and run again)");
});

Deno.test("__VU read by the init code is its instance's VU (each VU runs its own); read later, the global", () => {
  const fn = "\nexport default function () {}\n";
  const own = "__k6.initVu(import.meta.url)";
  for (
    const [init, read] of [
      [`const mine = __VU === 0 ? [] : [1, 2];`, `const mine = ${own} === 0 ? [] : [1, 2];`],
      [`const two = __VU + __VU;`, `const two = ${own} + ${own};`],
      [`const rows = [1, 2].filter((_, k) => k === __VU - 1);`, `[1, 2].filter((_, k) => k === ${own} - 1)`],
    ]
  ) {
    const code = convertK6(HEAD + init + fn, "t.js", "/scripts").code;
    ok(
      code.includes(read) && code.includes("url: import.meta.url }") && code.includes("resumes: false"),
      code,
    );
  }
  const lib = { locals: new Map(), library: true, facts: { metrics: false, stores: false, vuState: false } };
  const inModule = () => convertK6(HEAD + "export const mine = [__VU];", "m.js", "/scripts", false, lib);
  throws(inModule, /m\.js:3: __VU read by a module's init code/);
  assertEquals(
    problems(`const who = () => __VU;\nexport default function () { http.get("/" + __VU + who()); }`),
    [],
  );
  assertEquals(problems(`function vu() { return [1].map(() => __VU); }${fn}`), []);
  assertEquals(problems(`const o = { __VU: 1 };\nconst v = o.__VU;${fn}`), []);
});

Deno.test("a WebSocket's listener may sleep or send; the same function handed to another object may not", () => {
  const ws = `import { WebSocket } from "k6/websockets";\nimport k6ws from "k6/ws";\n` +
    `import { setTimeout } from "k6/timers";\n`;
  const nap = "function nap() { sleep(1); }\n";
  assertEquals(
    problems(`${ws}${nap}export default function () {
  const s = new WebSocket("ws://x/");
  s.onmessage = () => sleep(1);
  s.addEventListener("open", nap);
  k6ws.connect("ws://x/", (socket) => { sleep(1); socket.on("message", () => http.get("http://x/")); });
  setTimeout(nap, 10);
}`),
    [],
  );
  refused(
    `${ws}${nap}export default function () {\n  const other = {};\n  other.onmessage = nap;\n}`,
    9,
    /nap sends/,
  );
});
