/**
 * Scripts whose top level changes JavaScript's built-ins, through the real CLI against the built-in
 * target: loadlab's engine runs in the script's isolates, so a `then` added to Object.prototype (every
 * object a thenable), a replaced Promise.prototype.then, a throwing Array.prototype.push or a replaced
 * postMessage held the run a minute and blamed a setup() the script did not have, or failed with the
 * bare value the patched built-in threw. Each is refused before any load, at once, naming the built-in;
 * a polyfill adding a method of its own to Array.prototype, a seeded Math.random, or a top level calling
 * the globals, still runs. Loads are counts of 2.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runScriptFile, withTarget } from "./helpers.ts";

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
  ]
) {
  Deno.test(`a session script whose top level changes ${named} is refused at once, naming it`, () =>
    withTarget(async (url) => {
      const run = await runScriptFile("patch.js", session(url, top));
      assertEquals(run.code, 2, run.text);
      ok(run.text.includes(`patch.js: its top level changes JavaScript's built-ins (${named})`), run.text);
      ok(!run.text.includes("    at "), `no stack: ${run.text}`);
      ok(run.seconds < 40, `${run.seconds} s before the refusal`);
    }));
}

Deno.test("a k6 script whose top level replaces Promise.prototype.then is refused at once, naming it", () =>
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

Deno.test("a polyfill adding a method to Array.prototype, a seeded Math.random, or globals used at the top level still run", () =>
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
