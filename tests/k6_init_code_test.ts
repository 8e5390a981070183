/**
 * What k6 allows in a script's init code only, done after it: a custom metric made in an iteration (a new
 * name each one) fails that iteration at its line, as k6 refuses it, where 100 names an iteration crashed
 * loadlab's k6 summary after the run (a stack trace, exit 1); a top level making more than 1,000 is
 * refused before the load at its line; an `open()` in an iteration fails there too, where it read the file
 * again each iteration (a 200 MB one had the run cut at once for memory, nothing measured). Against the
 * built-in target; loads of a few iterations. Init code reading `__VU` runs once per VU, as k6 runs it.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runScriptFile, withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

Deno.test("a metric made in an iteration fails it at its line, as k6; the summary is written", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "made.js",
      `import http from "k6/http";
import { Counter } from "k6/metrics";
export const options = { iterations: 3 };
export default function () {
  http.get("${url}/");
  for (let i = 0; i < 100; i++) new Counter(\`c_\${__ITER}_\${i}\`).add(1);
}
`,
    );
    ok(!/^\s+at /m.test(run.text), run.text);
    ok(/http_reqs\.+: 3 /.test(run.text), run.text);
    const results = JSON.parse(Deno.readTextFileSync(`${run.dir}/out/results.json`));
    const messages = Object.entries(results.runs[0].errorMessages.script);
    assertEquals(messages.length, 1, JSON.stringify(messages));
    ok(
      /^a metric is made after the script's init code: as k6, .*\(made\.js:6\)$/.test(messages[0][0]),
      messages[0][0],
    );
    assertEquals(messages[0][1], 3);
  }));

Deno.test("a top level making more than 1,000 custom metrics is refused before the load at its line", () =>
  withTarget(async (url) => {
    const run = await runScriptFile(
      "many.js",
      `import http from "k6/http";
import { Trend } from "k6/metrics";
const trends = [];
for (let i = 0; i < 1_001; i++) trends.push(new Trend(\`t_\${i}\`));
export default function () { http.get("${url}/"); }
`,
    );
    assertEquals(run.code, 107, run.text);
    ok(
      /many\.js:4: does not load: metric t_1000 is past the 1,000 custom metrics loadlab keeps apart/.test(
        run.text,
      ),
      run.text,
    );
  }));

Deno.test("open() in an iteration fails it at its line, as k6; at the top level it reads", () =>
  withTarget(async (url) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-open-" });
    Deno.writeTextFileSync(`${dir}/body.txt`, "payload");
    const run = await runScriptFile(
      "opens.js",
      `import http from "k6/http";
const first = open("${dir}/body.txt");
export const options = { iterations: 2 };
export default function () {
  http.post("${url}/echo", first);
  http.post("${url}/echo", open("${dir}/body.txt"));
}
`,
    );
    const results = JSON.parse(Deno.readTextFileSync(`${run.dir}/out/results.json`));
    assertEquals(results.runs[0].requests, 2, run.text);
    const messages = Object.entries(results.runs[0].errorMessages.script);
    assertEquals(messages.length, 1, JSON.stringify(messages));
    ok(
      /^open\(".*body\.txt"\) after the script's init code: as k6, .*\(opens\.js:6\)$/.test(messages[0][0]),
      messages[0][0],
    );
    Deno.removeSync(dir, { recursive: true });
  }));

Deno.test("init code reading __VU runs once per VU, as k6's: each VU takes its own rows of a file", () =>
  withTarget(async (url) => {
    const users = JSON.stringify(Array.from({ length: 9 }, (_, k) => ({ user: k })));
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import { SharedArray } from "k6/data";
const users = new SharedArray("users", () => JSON.parse(open("./users.json")));
const mine = __VU === 0 ? [] : users.filter((u) => u.user % 3 === __VU - 1);
export const options = { vus: 3, iterations: 9, thresholds: { checks: ["rate==1"] } };
export default function () {
  check(mine, { "own rows": (m) => m.length === 3 && m.every((u) => u.user % 3 === __VU - 1) });
  http.get("http://app.test/json");
}`,
      url,
      [],
      { files: { "users.json": users } },
    );
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: object[] }) => s.checks ?? []);
    assertEquals(checks.map((c: { name: string; passed: number }) => [c.name, c.passed]), [["own rows", 9]]);
  }));

Deno.test("a VU's init code that throws or aborts ends the test before any iteration, as k6's", () =>
  withTarget(async (url) => {
    for (const [end, exit] of [['throw new Error("no rows")', 107], ['exec.test.abort("no rows")', 108]]) {
      const { code, text, dir } = await runK6Text(
        `import http from "k6/http";
import exec from "k6/execution";
if (__VU === 2) ${end};
export const options = { vus: 2, iterations: 6, thresholds: { iterations: ["count>0"] } };
export default function () { http.get("http://app.test/json"); }`,
        url,
        ["--summary-export", "summary.json"],
      );
      assertEquals(code, exit, text);
      ok(/VU 2.s init: .*no rows \(script\.js\?vu=2:3\)/.test(text), text);
      const summary = JSON.parse(Deno.readTextFileSync(`${dir}/summary.json`));
      assertEquals(summary.metrics.iterations, { count: 0, rate: 0, thresholds: { "count>0": true } });
    }
  }));
