/**
 * Scripts whose top level changes JavaScript's built-ins, through the real CLI against the built-in
 * target: loadlab's engine runs in the script's isolates, so a `then` added to Object.prototype (every
 * object a thenable), a replaced Promise.prototype.then, a throwing Array.prototype.push or a replaced
 * postMessage (or a stopped performance.now, a frozen globalThis, a replaced RegExp or TextEncoder method)
 * held the run a minute and blamed a setup() the script did not have, or failed with the bare value the
 * patched built-in threw. Each is refused before any load, at once, naming the built-in;
 * a polyfill adding a method of its own to Array.prototype, a seeded Math.random, or a top level calling
 * the globals, still runs. A session's `s` is loadlab's object: re-parented, shadowed or extended by the
 * script, it fails the session at the script's line; frozen, it runs as ever. Loads are counts of 2.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runScriptFile, withTarget } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` children: three at once. */
const pool = testPool(3);

const session = (url: string, top: string) =>
  `export const options = { targets: { app: { url: "${url}" } }, loads: { once: { model: "count", requests: 2 } } };
${top}
export default async (s) => { await s.get("/"); };
`;

for (
  const [top, named] of [
    ["Object.prototype.then = function (resolve) { resolve(1); };", "Object.prototype.then"],
    ["Promise.prototype.then = function () { return this; };", "Promise.prototype.then"],
    ['Array.prototype.push = () => { throw new Error("no push"); };', "Array.prototype.push"],
    ["globalThis.postMessage = () => {};", "globalThis.postMessage"],
    // The engine's clock stopped, and a global object it can no longer add to: each held the run 51 s.
    ["performance.now = () => 0;", "performance.now"],
    ["Object.freeze(globalThis);", "globalThis (frozen)"],
    // Every script error read "X"; every request went out empty.
    ['RegExp.prototype[Symbol.replace] = () => "X";', "RegExp.prototype.Symbol(Symbol.replace)"],
    ["TextEncoder.prototype.encode = () => new Uint8Array(0);", "TextEncoder.prototype.encode"],
    // The epoll transport reads its events through DataView: no answer was ever read again.
    ["DataView.prototype.getUint32 = () => 0;", "DataView.prototype.getUint32"],
    // The deno transport's connects: every later connection failed, the run read "lost", not why.
    ['Deno.connect = () => { throw new Error("no connect"); };', "Deno.connect"],
  ]
) {
  pool.test(`a session script whose top level changes ${named} is refused at once, naming it`, () =>
    withTarget(async (url) => {
      const run = await runScriptFile("patch.js", session(url, top));
      assertEquals(run.code, 2, run.text);
      ok(run.text.includes(`patch.js: its top level changes JavaScript's built-ins (${named})`), run.text);
      ok(!run.text.includes("    at "), `no stack: ${run.text}`);
      ok(run.seconds < 40, `${run.seconds} s before the refusal`);
    }));
}

pool.test("a k6 script whose top level replaces Promise.prototype.then is refused at once, naming it", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "patch.js",
      `import http from "k6/http";
export const options = { iterations: 2 };
Promise.prototype.then = function () { return this; };
export default function () { http.get("${url}/"); }
`,
    );
    assertEquals(run.code, 2, run.text);
    ok(run.text.includes("its top level changes JavaScript's built-ins (Promise.prototype.then)"), run.text);
    ok(run.seconds < 40, `${run.seconds} s before the refusal`);
  }));

pool.test("a polyfill adding a method to Array.prototype, a seeded Math.random, or globals used at the top level still run", () =>
  withTarget(async (url) => {
    // queueMicrotask's first call flips its enumerable: only a changed value or accessor counts.
    // A seeded Math.random is the script's own: the engine keeps the generator it took as it loaded.
    const top = "Array.prototype.lastOne = function () { return this[this.length - 1]; };\n" +
      "let seed = 7; Math.random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;\n" +
      "queueMicrotask(() => {}); performance.now(); new TextEncoder(); crypto.randomUUID(); setTimeout(() => {}, 1);";
    const run = await runScriptFile("poly.js", session(url, top).replace('"/"', '["/"].lastOne()'));
    assertEquals(run.code, 0, run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${run.dir}/out/results.json`));
    assertEquals(results.runs[0].flows[0].sessions, 2);
  }));

pool.test("a session's s re-parented, shadowed or frozen by the script: its error at its line, never the engine's", () =>
  withTarget(async (url) => {
    const run = async (name: string, top: string) => {
      const r = await runScriptFile(
        name,
        session(url, "").replace("async (s) => {", `async (s) => { ${top}`),
      );
      const results = JSON.parse(Deno.readTextFileSync(`${r.dir}/out/results.json`));
      return { ...r, run: results.runs[0] };
    };
    // Before: "load worker 0 failed: s.endWithBody is not a function", the whole run lost.
    for (
      const [name, top, says] of [
        ["proto.js", "Object.setPrototypeOf(s, null);", "#<ScriptSession> is not extensible (proto.js:3)"],
        [
          "shadow.js",
          "s.sleep = () => 0;",
          "Cannot assign to read only property 'sleep' of object '#<ScriptSession>' (shadow.js:3)",
        ],
        ["added.js", "s.mine = 1;", "Cannot add property mine, object is not extensible (added.js:3)"],
      ]
    ) {
      const r = await run(name, top);
      ok(!r.text.includes("load worker 0 failed"), r.text);
      assertEquals(r.run.errors.script, 2, r.text);
      ok(
        Object.keys(r.run.errorMessages.script).some((m) => m.includes(says)),
        JSON.stringify(r.run.errorMessages),
      );
    }
    // Frozen: loadlab's own fields are not the object's properties, so the sessions run as ever.
    const frozen = await run("frozen.js", "Object.freeze(s);");
    assertEquals([frozen.code, frozen.run.requests, frozen.run.errors], [0, 2, {}], frozen.text);
  }));
