/**
 * A script's `options` that no experiment file could say, through the real CLI against the built-in
 * target: a cycle or a BigInt (written as JSON for the run, they ended loadlab with a stack trace), and a
 * few lines making millions of thresholds (planning them ran loadlab out of memory). Each is refused
 * before any load with exit 2, naming the file, no stack trace; k6 scripts' options the same.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runScriptFile, withTarget } from "./helpers.ts";

const PLAIN = "export options must be plain data";

for (
  const [what, options, says] of [
    ["a cycle", "const o = { ...base }; o.loads.once.self = o;", "Converting circular structure to JSON"],
    ["a BigInt", "const o = { ...base, extra: 1n };", "Do not know how to serialize a BigInt"],
    [
      "millions of thresholds",
      'const o = { ...base, thresholds: Array(3000000).fill("p99 < 100ms") };',
      "MiB as JSON, more than an experiment file's 4 MiB",
    ],
  ]
) {
  Deno.test(`a session script's options holding ${what} are refused naming the file, no stack trace`, () =>
    withTarget(async (url) => {
      const run = await runScriptFile(
        "opts.js",
        `const base = { targets: { app: { url: "${url}" } }, loads: { once: { model: "count", requests: 2 } } };
${options}
export const options = o;
export default async (s) => { await s.get("/"); };
`,
      );
      assertEquals(run.code, 2, run.text);
      ok(run.text.includes(`opts.js: ${PLAIN}`) && run.text.includes(says), run.text);
      ok(!run.text.includes("    at "), `no stack: ${run.text}`);
    }));
}

Deno.test("a k6 script's options of millions of thresholds are refused naming the file", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "opts.js",
      `import http from "k6/http";
export const options = { iterations: 1, thresholds: { http_req_duration: Array(3000000).fill("p(95)<500") } };
export default function () { http.get("${url}/"); }
`,
    );
    assertEquals(run.code, 2, run.text);
    ok(
      run.text.includes(`opts.js: ${PLAIN}`) && run.text.includes("more than an experiment file's"),
      run.text,
    );
  }));
