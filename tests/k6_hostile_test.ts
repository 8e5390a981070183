/**
 * Hostile k6 scripts through `loadlab run` as users run them: options of the wrong type (a stack trace)
 * or summary stats and units k6 does not know (dropped silently), and handleSummary answers that cannot be
 * written (a folder, an empty name: a stack trace after the run), or that throw as they are read (a Proxy's
 * keys: an uncaught error), or a handleSummary that throws (was exit 2, bad input, after the load),
 * a fail() of a value whose toString throws and a check() of a Proxy whose traps throw (each counted as the
 * bare thrown value, no line). Each is refused with its file:line or path and why, no stack trace; what a run
 * wrote is kept. A top level that changes built-ins only outside a worker (where the summary once imported
 * it) leaves the summary and exit code alone. Loads are bounded counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { withTarget } from "./helpers.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` child: three at once. */
const pool = testPool(3);

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-hostile-cache-" });

/** `loadlab ARGS` in `cwd`: exit code and stdout + stderr. */
async function loadlab(cwd: string, ...args: string[]): Promise<{ code: number; text: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd,
    env: { XDG_CACHE_HOME: cache, NO_COLOR: "1", DENO_DIR: denoDir() },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

/** Deno's own cache, kept when XDG_CACHE_HOME moves loadlab's (Deno would look for its cache there too). */
function denoDir(): string {
  return Deno.env.get("DENO_DIR") ?? `${Deno.env.get("HOME") ?? "/root"}/.cache/deno`;
}

/** A folder holding `script.js` with `text`. */
function scriptIn(text: string): string {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-hostile-" });
  Deno.writeTextFileSync(`${dir}/script.js`, text);
  return dir;
}

const noStackTrace = (text: string) => ok(!/^\s+at .*:\d+:\d+\)?$/m.test(text), `a stack trace:\n${text}`);

pool.test("options of the wrong type are refused at their path, no stack trace", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
export const options = { stages: [null], thresholds: ["p(95)<1"] };
export default function () { http.get("${url}/"); }
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 104, run.text);
    ok(run.text.includes("options.stages[0]: a stage must be { duration, target }"), run.text);
    ok(run.text.includes("options.thresholds: thresholds is an object of metric: rules"), run.text);
    noStackTrace(run.text);
  }));

pool.test("summaryTrendStats k6 does not know refused at its path; a unit only as --summary-time-unit, as k6", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 1, summaryTrendStats: ["avg", "p95", "p(99.9)"], summaryTimeUnit: "sec" };
export default function () { http.get("${url}/"); }
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 104, run.text);
    ok(
      run.text.includes('options.summaryTrendStats[1]: "p95" is not a trend stat: k6\'s are avg,'),
      run.text,
    );
    ok(!run.text.includes("summaryTimeUnit") && !run.text.includes("summaryTrendStats[2]"), run.text);
    assertEquals(existsSync(`${dir}/out/results.json`), false, "no load ran");
    noStackTrace(run.text);
    const flag = await loadlab(
      dir,
      "run",
      "script.js",
      "--summary-trend-stats",
      "avg",
      "--summary-time-unit",
      "sec",
    );
    assertEquals(flag.code, 255, flag.text);
    ok(flag.text.includes('--summary-time-unit="sec": s, ms or us'), flag.text);
  }));

pool.test("handleSummary files that cannot be written: exit 5 naming each, the others and results.json kept", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 2 };
export default function () { http.get("${url}/"); }
export function handleSummary() {
  return { "": "x", ".": "x", "sub/dir/ok.txt": "written", stdout: "summary\\n" };
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 5, run.text);
    ok(/handleSummary\(\): cannot write "" \(an empty file name\), "\." \(/.test(run.text), run.text);
    ok(run.text.includes("summary\n"), run.text);
    noStackTrace(run.text);
    assertEquals(Deno.readTextFileSync(`${dir}/sub/dir/ok.txt`), "written");
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
    assertEquals(results.runs[0].flows[0].sessions, 2);
  }));

pool.test("handleSummary files that are loadlab's own outputs are not written over them: exit 5 naming each, the run's results kept", () =>
  withTarget(async (url) => {
    // With --out-dir . a handleSummary's "results.json" replaced loadlab's results (exit 0, the run lost).
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 2 };
export default function () { http.get("${url}/"); }
export function handleSummary() {
  return { "results.json": "not json", "./report.html": "<p>k6</p>", "summary.json": "{}" };
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", ".");
    assertEquals(run.code, 5, run.text);
    ok(run.text.includes(`"results.json" (loadlab wrote the run's results.json there`), run.text);
    ok(run.text.includes(`"./report.html" (loadlab wrote the run's report.html there`), run.text);
    noStackTrace(run.text);
    assertEquals(Deno.readTextFileSync(`${dir}/summary.json`), "{}");
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/results.json`));
    assertEquals(results.runs[0].flows[0].sessions, 2);
    ok(Deno.readTextFileSync(`${dir}/report.html`).length > 1000, "loadlab's report kept");
  }));

pool.test("thresholds on metrics named like Object's own (constructor, toString) are judged empty, Object untouched", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
import { Counter } from "k6/metrics";
new Counter("constructor");
new Counter("toString");
export const options = { iterations: 1, thresholds: { constructor: ["count>0"], toString: ["count<1"] } };
export default function () { http.get("${url}/"); }
export function handleSummary(data) {
  const m = data.metrics;
  return { "seen.json": JSON.stringify({ own: Object.hasOwn(m, "constructor") && Object.hasOwn(m, "toString"),
    rules: [m.constructor.thresholds, m.toString.thresholds], objectWritten: "thresholds" in Object }) };
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 99, run.text);
    // Never added to: k6's empty counter, count 0.
    ok(run.text.includes("thresholds on metrics 'constructor' have been crossed"), run.text);
    assertEquals(JSON.parse(Deno.readTextFileSync(`${dir}/seen.json`)), {
      own: true,
      rules: [{ "count>0": { ok: false } }, { "count<1": { ok: true } }],
      objectWritten: false,
    });
  }));

for (
  const [what, body] of [
    ["throws null", "throw null;"],
    ["answers a Proxy whose keys throw", "return new Proxy({}, { ownKeys() { throw 1; } });"],
  ]
) {
  pool.test(`a handleSummary that ${what}: one line, k6's own summary, the run's exit, no stack trace`, () =>
    withTarget(async (url) => {
      const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 2 };
export default function () { http.get("${url}/"); }
export function handleSummary() { ${body} }
`);
      const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
      // As k6: the error logged, k6's own summary printed, the run's exit code kept.
      assertEquals(run.code, 0, run.text);
      ok(!run.text.includes("Uncaught"), run.text);
      assertEquals(run.text.split("\n").filter((l) => l.includes("handleSummary()")).length, 1, run.text);
      ok(/handleSummary\(\) failed: .*; k6's own summary follows/.test(run.text), run.text);
      ok(run.text.includes("http_reqs"), run.text);
      noStackTrace(run.text);
      assertEquals(JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`)).runs[0].flows[0].sessions, 2);
    }));
}

pool.test("fail() of a value whose toString throws fails the iteration at its line, not as the bare value", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
import { fail } from "k6";
export const options = { iterations: 2 };
const hostile = { toString() { throw 7; } };
export default function () {
  http.get("${url}/");
  fail(hostile);
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    noStackTrace(run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
    assertEquals(results.runs[0].errorMessages.script, {
      [
        `fail()'s message cannot be shown as text (its toString throws): give fail() a string, ` +
        `e.g. fail("status was not 200") (script.js:7)`
      ]: 2,
    });
  }));

pool.test("check() of conditions a Proxy's traps throw fails the iteration at its line, not as the bare value", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2 };
const sets = new Proxy({}, { ownKeys() { throw 7; } });
export default function () {
  const res = http.get("${url}/");
  check(res, sets);
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    noStackTrace(run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
    assertEquals(results.runs[0].errorMessages.script, {
      [
        `check()'s conditions cannot be read (reading them throws): give check() an object of name: condition, ` +
        `e.g. { "status 200": (r) => r.status === 200 } (script.js:7)`
      ]: 2,
    });
  }));

pool.test("a top level that changes built-ins only outside a worker leaves the run's summary and exit alone", () =>
  withTarget(async (url) => {
    // The script was imported into loadlab's own process for its summary: this made every object a
    // thenable there, and the run ended with exit 1, no summary and no word why.
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 2 };
if (typeof WorkerGlobalScope === "undefined") Object.prototype.then = function (resolve) { resolve(1); };
export default function () { http.get("${url}/"); }
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 0, run.text);
    ok(/http_reqs\.+: 2 /.test(run.text), run.text);
    assertEquals(JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`)).runs[0].flows[0].sessions, 2);
  }));

pool.test("a k6 script's own Content-Length is left out, as k6 does: its body framed whole, the next request whole", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 3 };
export default function () {
  const r = http.post("${url}/echo", "abcdefghij", { headers: { "Content-Length": "5", "X-A": "b" } });
  check(r, { "body whole": (x) => x.body === "abcdefghij" });
}
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    assertEquals(run.code, 0, run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${dir}/out/results.json`));
    assertEquals([results.runs[0].requests, results.runs[0].successRate], [3, 1]);
    ok(/checks_succeeded\.+: 100\.00% 3 out of 3/.test(run.text), run.text);
  }));

pool.test("a k6 run whose every iteration threw times its iterations but no request in its summary, as k6's", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 3 };
export default function () { if (__ITER >= 0) throw new Error("always"); http.get("${url}/"); }
`);
    const run = await loadlab(dir, "run", "script.js", "--out-dir", "out");
    // As k6's: iterations that throw fail no test without a threshold; the terminal says none sent.
    assertEquals(run.code, 0, run.text);
    ok(run.text.includes("no session completed: every session failed, none sent a request"), run.text);
    // k6 v1.8.1 times an iteration that threw (iteration_duration), and no request was made.
    ok(run.text.includes("iterations....") && run.text.includes("iteration_duration"), run.text);
    ok(!run.text.includes("http_req_duration"), run.text);
  }));

pool.test("handleSummary to /dev/stdout and /dev/stderr appends to loadlab's streams, a file's earlier output kept", () =>
  withTarget(async (url) => {
    const dir = scriptIn(`import http from "k6/http";
export const options = { iterations: 1 };
export default function () { http.get("${url}/"); }
export function handleSummary() { return { "/dev/stdout": "SUMMARY-OUT\\n", "/dev/stderr": "SUMMARY-ERR\\n" }; }
`);
    // The child's own stdout and stderr are files, as `loadlab run ... > out.txt` makes them.
    const out = await new Deno.Command("sh", {
      args: [
        "-c",
        '"$0" run -A "$1" run script.js --out-dir out >stdout.txt 2>stderr.txt',
        Deno.execPath(),
        MAIN,
      ],
      cwd: dir,
      env: { XDG_CACHE_HOME: cache, NO_COLOR: "1", DENO_DIR: denoDir() },
      signal: AbortSignal.timeout(60_000),
    }).output();
    const stdout = Deno.readTextFileSync(`${dir}/stdout.txt`);
    const stderr = Deno.readTextFileSync(`${dir}/stderr.txt`);
    assertEquals(out.code, 0, stdout + stderr);
    ok(!stdout.includes("\0") && !stderr.includes("\0"), "NUL bytes where loadlab's output was");
    ok(/^run 1\/1 app\/k6 [\s\S]*\nSUMMARY-OUT\n[\s\S]*results: out\/results\.json/.test(stdout), stdout);
    ok(stderr.includes("SUMMARY-ERR\n"), stderr);
  }));
