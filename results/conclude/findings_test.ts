import assert from "node:assert/strict";
import { makeCpuSleepQuick, makeSeed000 } from "../../tests/fixtures/make_results.ts";
import { analyze } from "./analysis.ts";
import { buildFindings, FINDINGS } from "./findings.ts";

Deno.test("findings: one sentence per load, with changes beyond noise and CIs from the stored analysis", () => {
  const results = makeSeed000(3, 5);
  results.analysis = analyze(results.runs, { baseline: "no-cache" });
  const findings = buildFindings(results);
  const high = findings.find((f) => f.kind === "load" && f.text.startsWith("high:"))!;
  assert.ok(high, findings.map((f) => f.text).join("\n"));
  // Both variants with their means ± the 95% CI over 3 repeats, then the change against the baseline.
  assert.match(
    high.text,
    /^high: no-cache [\d,.]+ ± [\d,.]+ req\/s, p99 [\d.]+ s ± [\d.]+ m?s, success [\d.]+% ± [\d.]+ points/,
  );
  assert.match(
    high.text,
    /redis-cache against no-cache: req\/s [+-][\d.]+% (beyond|within) noise, p99 -\d+\.\d% beyond noise/,
  );
  // The sweep's points each get a sentence (no load: named by the sweep point).
  assert.ok(findings.some((f) => f.text.startsWith("rate=5000:")), findings.map((f) => f.text).join("\n"));
});

Deno.test("findings: flagged runs named, and the expected directions reproduced or not", () => {
  const findings = buildFindings(makeCpuSleepQuick());
  const flagged = findings.find((f) => f.kind === "flagged")!;
  assert.equal(flagged.tone, "warn");
  assert.match(flagged.text, /^3 of 4 runs flagged.*single\/cpuTime\/query\.ms=0 \(generator-bound\)/);
  const [rps, p99] = findings.filter((f) => f.kind === "expect");
  // A generator-bound run's numbers are loadlab's, not the target's: that point is not judged.
  assert.match(
    rps.text,
    /^Expected: cluster's req\/s higher than single's at load cpuTime .*: not reproduced here \(.*not judged: single\/cpuTime\/query\.ms=0 is generator-bound; .*no difference\)/,
  );
  assert.equal(rps.tone, "bad");
  assert.match(p99.text, /not reproduced here/);

  // A direction that held but whose runs are too short to judge noise is not reproduced.
  const results = makeCpuSleepQuick();
  results.runs[0].generatorBound = false;
  results.experiment.expect = [{ metric: "rps", better: "single", than: "cluster", load: "cpuTime" }];
  const [held] = buildFindings(results).filter((f) => f.kind === "expect");
  assert.match(held.text, /: not reproduced here; run without --quick for .* \(.*noise not judged/);
  assert.doesNotMatch(held.text, /: reproduced here|reproduced at/);
  results.experiment.expect = [{ metric: "rps", better: "nobody", than: "cluster" }];
  assert.match(buildFindings(results).at(-1)!.text, /not checked here \(no runs of both\)/);
});

Deno.test("findings: a clean attack has its one sentence and nothing flagged", () => {
  const results = makeSeed000(1, 5);
  results.runs = results.runs.filter((r) => r.name === "redis-cache/baseline#0");
  const findings = buildFindings(results);
  assert.deepEqual(findings.map((f) => f.kind), ["load"]);
  assert.match(findings[0].text, /^baseline: redis-cache [\d,.]+ req\/s, p99 [\d.]+ ms, success 100\.00%\.$/);
});

Deno.test("findings: a run without a response shows dashes, not a 0 ms p99", () => {
  const results = makeCpuSleepQuick();
  results.runs = results.runs.map((r) => ({ ...r, requests: 0, rps: 0 }));
  const [first] = buildFindings(results);
  assert.match(first.text, /single 0\.0 req\/s, p99 -, success -/);
});

Deno.test("findings: a change too short to judge says so instead of 'within noise'", () => {
  const results = makeSeed000(1, 10);
  results.runs = results.runs.filter((r) => r.repeat !== undefined);
  results.analysis = analyze(results.runs, { baseline: "no-cache" });
  for (const c of results.analysis.comparisons) Object.assign(c, { beyondNoise: false, noiseUnknown: true });
  const text = buildFindings(results).map((f) => f.text).join("\n");
  assert.match(text, /noise not judged: too few repeats or too short/);
  assert.doesNotMatch(text, /within noise/);
});

Deno.test("findings: a direction beyond noise at every point is reproduced; the other way round is not", () => {
  const results = makeSeed000(3, 5);
  results.analysis = analyze(results.runs, { baseline: "no-cache" });
  results.experiment.expect = [
    { metric: "p99", better: "redis-cache", than: "no-cache", load: "high" },
    { metric: "p99", better: "no-cache", than: "redis-cache", load: "high" },
  ];
  const [held, opposite] = buildFindings(results).filter((f) => f.kind === "expect");
  assert.match(
    held.text,
    /^Expected: redis-cache's p99 lower than no-cache's at load high: reproduced here \(high: .* beyond noise by Welch's t-test over repeats, .* apart, 3 repeats each\)\.$/,
  );
  assert.equal(held.tone, "good");
  assert.match(opposite.text, /: not reproduced here: the other way round/);
  assert.equal(opposite.tone, "bad");
});

Deno.test("findings: a direction not reproduced while other processes took a run's cores is inconclusive", () => {
  const results = makeSeed000(3, 5);
  results.analysis = analyze(results.runs, { baseline: "no-cache" });
  results.experiment.expect = [{ metric: "p99", better: "no-cache", than: "redis-cache", load: "high" }];
  const opposite = () => buildFindings(results).filter((f) => f.kind === "expect")[0];
  const run = results.runs.find((r) => r.name === "no-cache/high#1")!;
  // The same share on every run explains no difference between them: the verdict stands.
  for (const r of results.runs) r.hostCpu = { otherCores: 0.7, cores: 2 };
  assert.match(opposite().text, /: not reproduced here: the other way round/);
  // Taken from the side that did better, it explains nothing of this direction.
  results.runs.find((r) => r.name === "redis-cache/high#1")!.hostCpu = { otherCores: 1.3, cores: 2 };
  assert.match(opposite().text, /: not reproduced here: the other way round/);
  run.hostCpu = { otherCores: 1.3, cores: 2 };
  assert.match(
    opposite().text,
    /: not judged: inconclusive: other processes took 1.3 of the 2 cores during run no-cache\/high#1 \(/,
  );
  assert.equal(opposite().tone, "warn");
});

Deno.test("docs/REFERENCE.md lists the findings as FINDINGS does, in its order", () => {
  const doc = Deno.readTextFileSync(new URL("../../docs/REFERENCE.md", import.meta.url));
  const from = doc.indexOf("The block lists its findings in this order:");
  const section = doc.slice(from, doc.indexOf("\n\n", doc.indexOf("| finding", from)));
  const rows = [...section.matchAll(/^\| `([^`]+)` +\| (.+?) +\|$/gm)].map(([, kind, says]) => ({
    kind,
    says,
  }));
  assert.deepEqual(rows, FINDINGS.map((f) => ({ kind: f.kind, says: f.says })));
});

Deno.test("findings: every sentence carries a kind FINDINGS declares, in FINDINGS order", () => {
  const order = FINDINGS.map((f) => f.kind);
  const kinds = buildFindings(makeCpuSleepQuick()).map((f) => order.indexOf(f.kind));
  assert.ok(kinds.length > 0 && kinds.every((k, i) => k >= 0 && (i === 0 || k >= kinds[i - 1])), `${kinds}`);
});
