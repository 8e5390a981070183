/**
 * k6 scripts end to end: converted and run by real worker isolates against the built-in target, their
 * URLs of a public host sent to the run's target; requests counted by k6's `tags.name`, checks by name,
 * `__VU`, `group`, array callbacks, `http.batch`, `SharedArray` of `open()`, `k6/execution`; a throw counted
 * with the k6 file's own line; and `loadlab run script.js` refusing a script it cannot convert (exit 2,
 * file:line), running one with k6's flags over its options, handleSummary, and `loadlab convert k6`.
 * Loads are bounded counts.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { withScriptVars, withTarget } from "./helpers.ts";
import { runAttack } from "../runner/attack.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";
import { conversionCacheDir } from "../runner/script/cache_dir.ts";

const fixture = (name: string) => new URL(`./fixtures/k6/${name}`, import.meta.url).pathname;
const cache = Deno.makeTempDirSync({ prefix: "loadlab-k6-cache-" });

Deno.test("a k6 script's requests, checks and groups on loadlab's engine", () =>
  withTarget(async (url) => {
    const path = sessionScriptPath(fixture("login_browse.js"));
    ok(path.startsWith(conversionCacheDir()) && path.endsWith("/login_browse.js"), path);
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 6,
      connections: 2,
      workers: 2,
      intervalMs: 100,
      script: { path, routes: { "https://test.k6.io": url } },
    }));
    assertEquals(run.errors, {});
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [6, 6, 0]);
    const requests = Object.fromEntries(flow.steps.map((s) => [s.label, [s.requests, s.errors]]));
    assertEquals(requests, {
      login: [6, 0],
      me: [6, 0],
      user: [12, 0],
      batch: [6, 0],
      "GET /json": [6, 0],
    });
    const checks = Object.fromEntries(
      flow.steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, [c.passed, c.failed]]),
    );
    // Those in group("browse") under k6's path.
    assertEquals(checks, {
      "logged in": [6, 0],
      "::browse::me is me": [6, 0],
      "::browse::json": [6, 0],
      "::browse::vu": [6, 0],
      "::browse::pages 200": [6, 0],
    });
  }));

Deno.test("a throw in a k6 script counts under the k6 file's own line", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 3,
      connections: 1,
      intervalMs: 100,
      script: { path: sessionScriptPath(fixture("throws.js")), routes: { "http://127.0.0.1": url } },
    }));
    assertEquals(run.errors.script, 3);
    const messages = Object.keys(run.errorMessages?.script ?? {});
    assertEquals(messages, ["odd iteration (throws.js:5)"]);
  }));

const loadlab = (...args: string[]) => loadlabIn(Deno.cwd(), ...args);
const loadlabIn = (cwd: string, ...args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname, ...args],
    cwd,
    env: { XDG_CACHE_HOME: cache, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();

Deno.test("loadlab run refuses a k6 script it cannot convert, naming file:line and why (k6's 107)", async () => {
  const out = await loadlab("run", fixture("refused.js"));
  const text = new TextDecoder().decode(out.stderr);
  assertEquals(out.code, 107, text);
  ok(text.includes("refused.js:5: a callback that sends requests is handed to sort()"), text);
  ok(text.includes("refused.js:6: a callback that sends requests is handed to reduceRight()"), text);
  // No default function: named by the file alone (it named line 6 of a 3-line file, the conversion's own).
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-nodefault-" });
  Deno.writeTextFileSync(
    `${dir}/nodefault.js`,
    'import http from "k6/http";\nexport function other() { http.get("http://127.0.0.1/"); }\n',
  );
  const none = await loadlab("run", `${dir}/nodefault.js`);
  const said = new TextDecoder().decode(none.stderr);
  // k6's invalid configuration: "function 'default' not found in exports".
  assertEquals(none.code, 104, said);
  ok(said.includes("nodefault.js: does not load: no default function to run per iteration"), said);
});

Deno.test("loadlab run script.js: k6's options and flags as the load, thresholds judged", () =>
  withTarget(async (url) => {
    const outDir = Deno.makeTempDirSync({ prefix: "loadlab-k6-run-" });
    const out = await loadlab(
      "run",
      fixture("login_browse.js"),
      "--target",
      `app=${url}`,
      "--iterations",
      "4",
      "--out-dir",
      outDir,
    );
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    const results = JSON.parse(Deno.readTextFileSync(`${outDir}/results.json`));
    const run = results.runs[0];
    assertEquals([run.model, run.flows[0].sessions], ["count", 4]);
    assertEquals(results.thresholds.map((t: { ok: boolean }) => t.ok), [true, true]);
  }));

Deno.test("handleSummary gets k6's summary data; textSummary and jUnit write it as jslib does; checks judged", () =>
  withTarget(async (url) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-summary-" });
    const out = await loadlabIn(
      dir,
      "run",
      fixture("summary.js"),
      "--target",
      `app=${url}`,
      "--out-dir",
      "out",
      "--summary-mode",
      "legacy",
    );
    const stdout = new TextDecoder().decode(out.stdout);
    // Half the checks pass: `rate>0.9` on checks fails, exit 99 as under k6.
    assertEquals(out.code, 99, stdout + new TextDecoder().decode(out.stderr));
    // jslib's layout: each column as wide as its widest value, submetrics under their metric.
    ok(/^ {3}✗ checks\.+: 50\.00% ✓ 6 +✗ 6 *$/m.test(stdout), stdout);
    ok(stdout.includes("     ✗ never\n      ↳  0% — ✓ 0 / ✗ 6"), stdout);
    ok(/^ {5}✓ \{ name:json \}\.+: avg=/m.test(stdout), stdout);
    // Colors unless enableColors is false, as the library's default.
    const colored = Deno.readTextFileSync(`${dir}/summary/colored.txt`);
    ok(colored.includes("\x1b[31m     ✗ never\n      ↳  0% — ✓ 0 / ✗ 6\x1b[0m"), colored);
    // The library's jUnit: a case per threshold, a failed one with its metric's values, names escaped.
    const junit = Deno.readTextFileSync(`${dir}/summary/junit.xml`);
    ok(junit.startsWith('<?xml version="1.0"?>\n<testsuites tests="4" failures="1">\n'), junit);
    ok(junit.includes('<testsuite name="api &lt;smoke&gt;" tests="4" failures="1"><testcase name="'), junit);
    ok(junit.includes('<testcase name="checks - rate&gt;0.4" />'), junit);
    ok(
      /<testcase name="checks - rate&gt;0\.9"><failure message="failed, number of fails: 6, number of passes: 6, rate: 0\.5"\/><\/testcase>/
        .test(junit),
      junit,
    );
    ok(junit.endsWith("\n</testsuite >\n</testsuites >"), junit);
    const data = JSON.parse(Deno.readTextFileSync(`${dir}/summary/data.json`));
    assertEquals(data.metrics.http_reqs.values.count, 6);
    assertEquals(data.metrics.iterations.values.count, 6);
    assertEquals(data.metrics["http_req_failed"].thresholds, { "rate<0.01": { ok: true } });
    assertEquals(data.metrics.checks.thresholds, { "rate>0.4": { ok: true }, "rate>0.9": { ok: false } });
    assertEquals(data.root_group.checks.map((c: { name: string; passes: number }) => [c.name, c.passes]), [
      ["status 200", 6],
      ["never", 0],
    ]);
  }));

Deno.test("k6's summary shows the script's summaryTrendStats, p(99.9) and count too, in its summaryTimeUnit", () =>
  withTarget(async (url) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-trend-stats-" });
    Deno.writeTextFileSync(
      `${dir}/script.js`,
      `import http from "k6/http";
export const options = { vus: 2, iterations: 6, summaryTrendStats: ["avg", "p(99.9)", "count"], summaryTimeUnit: "ms" };
export default function () { http.get("${url}/json"); }
`,
    );
    const out = await loadlabIn(dir, "run", "script.js", "--out-dir", "out");
    const stdout = new TextDecoder().decode(out.stdout);
    assertEquals(out.code, 0, stdout + new TextDecoder().decode(out.stderr));
    // Every time in ms, however small (k6 writes 420.00µs as 0.42ms under summaryTimeUnit: ms).
    match(stdout, /http_req_duration\.+: avg=\d+\.\d\dms +p\(99\.9\)=\d+\.\d\dms +count=6 *\n/);
    match(stdout, /iteration_duration\.+: avg=\d+\.\d\dms +p\(99\.9\)=\d+\.\d\dms +count=6 *\n/);
  }));

Deno.test("loadlab convert k6 writes the session script, every line where it was", async () => {
  const out = `${Deno.makeTempDirSync({ prefix: "loadlab-k6-convert-" })}/session.js`;
  const done = await loadlab("convert", "k6", fixture("throws.js"), "-o", out);
  assertEquals(done.code, 0, new TextDecoder().decode(done.stderr));
  const lines = Deno.readTextFileSync(out).split("\n");
  assertEquals(lines[3].trim(), `(await http.get("http://127.0.0.1/json"));`);
  assertEquals(lines[4].trim(), `if (__VU > 0) throw new Error("odd iteration");`);
  assertEquals((await loadlab("convert", "k6", fixture("refused.js"))).code, 2);
  // A device is not read (it was, until memory ran out), the script is never overwritten, a failed write
  // is a usage error, not a stack trace.
  const stderr = async (...args: string[]) => {
    const r = await loadlab("convert", "k6", ...args);
    return `${r.code} ${new TextDecoder().decode(r.stderr).trim()}`;
  };
  match(await stderr("/dev/zero"), /^2 .*\/dev\/zero: is a character device, not a regular file/);
  const copy = `${out}.k6.js`;
  Deno.copyFileSync(fixture("throws.js"), copy);
  match(await stderr(copy, "-o", copy), /^2 .*is the k6 script itself; write the session to another file/);
  // Nor by another name of the same file: a symbolic link to it (written through) or a hard link.
  Deno.symlinkSync(copy, `${out}.link.js`);
  Deno.linkSync(copy, `${out}.hard.js`);
  for (const other of [`${out}.link.js`, `${out}.hard.js`]) {
    match(await stderr(copy, "-o", other), /^2 .*is the k6 script itself; write the session to another file/);
  }
  assertEquals(Deno.readTextFileSync(copy), Deno.readTextFileSync(fixture("throws.js")));
  // A file the system will not write is an output that could not be written: exit 5, as for results.json.
  match(await stderr(copy, "-o", `${out}.missing/x.js`), /^5 .*cannot write: No such file/);
});

Deno.test("noCookiesReset: a VU's session cookie outlives its iteration; without it each iteration starts bare", () =>
  withTarget(async (url) => {
    const path = sessionScriptPath(fixture("vu_cookies.js"));
    const meChecks = async (vars: Record<string, string> = {}) => {
      const run = await withScriptVars(vars, () =>
        runAttack(parseAttackConfig({
          url,
          model: "count",
          requests: 6,
          connections: 2,
          intervalMs: 100,
          script: { path, routes: { "http://app.test": url } },
        })));
      const me = run.flows![0].steps.find((s) => s.label === "me");
      return me?.checks?.map((c) => [c.name, c.passed, c.failed]);
    };
    assertEquals(await meChecks(), [["me 200", 4, 0]]);
    assertEquals(await meChecks({ RESET: "1" }), [["me 200", 0, 4]]);
  }));

Deno.test("a scenario's exec names the function each iteration runs", () =>
  withTarget(async (url) => {
    const run = await runAttack(parseAttackConfig({
      url,
      model: "count",
      requests: 4,
      connections: 2,
      intervalMs: 100,
      script: { path: sessionScriptPath(fixture("scenario_exec.js")), routes: { "http://app.test": url } },
    }));
    const steps = run.flows![0].steps;
    assertEquals(steps.map((s) => [s.label, s.requests]), [["browse", 4]]);
    assertEquals(steps[0].checks?.map((c) => [c.name, c.passed]).sort(), [["200", 4], ["scenario named", 4]]);
  }));

Deno.test("custom metrics from every worker reach k6's summary; thresholds on them judged", () =>
  withTarget(async (url) => {
    const dir = Deno.makeTempDirSync({ prefix: "loadlab-k6-metrics-" });
    const out = await loadlabIn(
      dir,
      "run",
      fixture("custom_metrics.js"),
      "--target",
      `app=${url}`,
      "--out-dir",
      "out",
    );
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    // `json_size: max<0` cannot hold: exit 99, the others pass.
    assertEquals(out.code, 99, text);
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/summary/data.json`)).metrics;
    assertEquals(m.pages.values.count, 16);
    assertEquals(m.pages.thresholds, { "count==16": { ok: true } });
    assertEquals([m.ok_rate.values.passes, m.ok_rate.values.fails, m.ok_rate.thresholds], [8, 0, {
      "rate==1": { ok: true },
    }]);
    ok(
      m.json_size.values.min > 0 && m.json_size.values.min === m.json_size.values.max,
      JSON.stringify(m.json_size),
    );
    assertEquals(m.json_size.thresholds, { "min>0": { ok: true }, "max<0": { ok: false } });
    ok([1, 2].includes(m.last_vu.values.value), JSON.stringify(m.last_vu));
  }));
