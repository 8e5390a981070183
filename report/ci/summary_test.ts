import assert from "node:assert/strict";
import type { Analysis } from "../../results/mod.ts";
import {
  HOSTILE_IMG,
  HOSTILE_SCRIPT,
  makeCpuSleepQuick,
  makeSeed000,
} from "../../tests/fixtures/make_results.ts";
import { escapeXml, renderJunit, renderMarkdownSummary } from "./summary.ts";
import { describeNoiseRule } from "../html/page/experiment.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";

const metrics = (rps: number, p50: number) => ({
  rps: { n: 2, mean: rps, stdev: 1, ci95: 9 },
  p50: { n: 2, mean: p50, stdev: 1, ci95: 9 },
  p99: { n: 2, mean: p50 * 3, stdev: 1, ci95: 9 },
  success: { n: 2, mean: 100, stdev: 0, ci95: 0 },
});

const ANALYSIS: Analysis = {
  noiseRule: "repeats",
  groups: [
    {
      key: "no-cache/high",
      variant: "no-cache",
      load: "high",
      sweep: null,
      sweep2: null,
      runs: ["a", "b"],
      metrics: metrics(95, 2400),
    },
    {
      key: "redis-cache/high",
      variant: "redis-cache",
      load: "high",
      sweep: null,
      sweep2: null,
      runs: ["c", "d"],
      metrics: metrics(100, 9),
    },
  ],
  comparisons: [
    {
      group: "redis-cache/high",
      baselineGroup: "no-cache/high",
      metric: "p50",
      changePct: -99.6,
      beyondNoise: true,
    },
    {
      group: "redis-cache/high",
      baselineGroup: "no-cache/high",
      metric: "rps",
      changePct: 5.3,
      beyondNoise: false,
    },
  ],
  knees: [{
    variant: "node-single",
    load: null,
    parameter: "rate",
    value: 5000,
    reason: "achieved 5200 req/s",
  }],
  searches: [{
    parameter: "load.rate",
    target: "direct",
    load: "steady",
    slo: "p99 < 100ms",
    value: 4300,
    low: { value: 4300, run: "p1" },
    high: { value: 4500, run: "p2" },
    confirmRun: "p3",
    probes: [{ value: 100, run: "p0", ok: true }],
  }],
};

Deno.test("the markdown summary lists runs, failed thresholds first, changes beyond noise and capacity", () => {
  const results = { ...makeSeed000(2, 5), analysis: ANALYSIS };
  const md = renderMarkdownSummary(results);
  assert.match(md, /^## loadlab: seed 000: Wiki\.js with and without a Redis cache\n/);
  const run = results.runs[0];
  assert.ok(
    md.includes(
      `| ${run.name.replace("#", "\\#")} | ok | ${run.targetRps} | ${run.requests} | 0 | ${
        Math.round(run.rps)
      } | ` +
        `${run.latencyMs.p50.toFixed(2)} |`,
    ),
  );
  assert.match(md, /### Thresholds: 1 of 2 thresholds failed/);
  assert.ok(md.indexOf("❌ FAIL") < md.indexOf("✅ pass"), "failures first");
  assert.match(md, /\| redis-cache\/high \| p50 \| 2400\.00 \| 9\.00 \| -99\.6% \|/);
  assert.ok(!md.includes("| rps |"), "only changes beyond noise");
  assert.match(md, /judged by the spread between 2 repeats/);
  assert.match(md, /Capacity of direct\/steady: load\.rate = 4,300 \(fails at 4,500\)/);
  assert.match(md, /Knee of node-single over rate: 5000/);
});

Deno.test("the markdown summary escapes HTML and markdown from results", () => {
  const md = renderMarkdownSummary(makeSeed000(1, 5));
  assert.ok(!md.includes(HOSTILE_IMG) && !md.includes("<img"), "no raw HTML");
  assert.ok(md.includes("&lt;img src=x onerror=alert(1)&gt;"));
  // A pipe in a name cannot split a table row.
  const results = makeSeed000(1, 5);
  results.runs[0].name = "a|b";
  assert.ok(renderMarkdownSummary(results).includes("| a\\|b |"));
});

Deno.test("JUnit: one test case per threshold and run, failures with actual vs expected, escaped", () => {
  const results = makeSeed000(1, 5);
  results.thresholds[1].actual = 0.651; // a success rate as the runner stores it (0..1)
  const xml = renderJunit(results);
  assert.match(
    xml,
    /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="loadlab" tests="2" failures="1"/,
  );
  assert.equal([...xml.matchAll(/<testcase /g)].length, 2);
  assert.match(
    xml,
    /<testcase classname="loadlab.redis-cache\/high#0" name="p99 &lt; 500ms" time="5.000">\n {6}<properties>/,
  );
  assert.match(xml, /<failure type="threshold" message="actual 65.10%, expected success &gt; 99% &lt;img/);
  assert.ok(!xml.includes(HOSTILE_IMG));
  results.complete = false;
  results.experiment.name = HOSTILE_SCRIPT;
  const partial = renderJunit(results);
  assert.match(partial, /tests="3" failures="2"/);
  assert.match(partial, /name="every planned run finished"/);
  assert.ok(!partial.includes("</script>"));
});

Deno.test("escapeXml drops characters XML cannot hold and escapes quotes", () => {
  assert.equal(escapeXml(`a\u0001"b'<&>`), "a&quot;b&apos;&lt;&amp;&gt;");
});

Deno.test("a dropped-send run shows requested, sent and dropped; flagged gates say so; findings come first", () => {
  const md = renderMarkdownSummary(makeCpuSleepQuick());
  assert.ok(
    md.includes("| single/cpuTime/query.ms=10 | ⚠️ dropped 99.7% | 20,000 | 94 | 29,839 (99.7%) | 94 |"),
    md,
  );
  assert.ok(md.indexOf("### Findings") < md.indexOf("| run | verdict |"), "findings first");
  assert.match(md, /3 of 4 runs flagged/);
  assert.match(
    md,
    /\| ✅ pass \| p99&lt;100ms \| single\/cpuTime\/query\.ms=0 \| 25\.61 ms \| ⚠️ on a generator-bound run \|/,
  );
  assert.match(md, /\| ❌ FAIL \| success &gt;= 99% \| [^|]+ \| 73\.33% \|/);
});

Deno.test("JUnit carries each run's verdict as a property and a system-out line", () => {
  const xml = renderJunit(makeCpuSleepQuick());
  assert.match(xml, /<property name="loadlab.verdict" value="generator-bound"\/>/);
  // The fixture's run answered 22% of its requests with a 503: the verdict says so beside the drops.
  assert.match(xml, /<system-out>run verdict: dropped 99.7%, server errors 22%<\/system-out>/);
  assert.match(
    xml,
    /message="actual 73.33%, expected success &gt;= 99% — on a dropped 99.7%, server errors 22% run"/,
  );
  // properties, then the failure, then system-out: the order JUnit readers expect.
  assert.match(xml, /<\/properties>\n {6}<failure [^\n]*<\/failure>\n {6}<system-out>/);
});

Deno.test("JUnit under --strict: a flagged run is a failing 'run verdict' case named by its label", () => {
  const results = makeCpuSleepQuick();
  const lax = renderJunit(results);
  assert.ok(!lax.includes('name="run verdict"'), "without --strict the verdict stays a property");
  const xml = renderJunit(results, { strict: true });
  const runs = results.runs.filter((r) => !r.probe);
  const flagged = runs.filter((r) => !runVerdict(r).ok);
  assert.ok(flagged.length > 0 && flagged.length < runs.length, "the fixture has flagged and ok runs");
  assert.equal([...xml.matchAll(/name="run verdict"/g)].length, runs.length);
  assert.equal([...xml.matchAll(/<failure type="verdict" /g)].length, flagged.length);
  assert.match(
    xml,
    /<testcase classname="loadlab.single\/cpuTime\/query.ms=10" name="run verdict" time="[\d.]+">\n {6}<failure type="verdict" message="dropped 99.7%">/,
  );
  const lost = results.thresholds.filter((t) => !t.ok).length;
  assert.match(
    xml,
    new RegExp(
      `<testsuites name="loadlab" tests="${results.thresholds.length + runs.length}" failures="${
        lost + flagged.length
      }"`,
    ),
  );
});

Deno.test("describeNoiseRule names the rule and the number of repeats", () => {
  assert.match(describeNoiseRule({ ...ANALYSIS, noiseRule: "within-run" }), /within each run/);
  assert.equal(describeNoiseRule(ANALYSIS), "judged by the spread between 2 repeats (Welch's t-test, 95%)");
});

Deno.test("a --quick run's summary says the values each load ran beside the full study's description", () => {
  const results = makeSeed000(1, 5);
  results.experiment.description = "baseline 10/s for 30 s";
  assert.doesNotMatch(renderMarkdownSummary(results), /Ran with --quick/);
  results.experiment.quick = true;
  assert.match(
    renderMarkdownSummary(results),
    /baseline 10\/s for 30 s\n\nRan with --quick, not the values described above: /,
  );
});
