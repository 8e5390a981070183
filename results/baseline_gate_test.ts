import assert from "node:assert/strict";
import { makeSeed000, makeSingleAttack, withoutWaits } from "../tests/fixtures/make_results.ts";
import { environmentDiff, gateAgainstBaseline } from "./baseline_gate.ts";
import { parseFailOn } from "./fail_on.ts";
import { verdictText } from "../report/terminal/baseline_gate.ts";
import { renderJunit, renderMarkdownSummary } from "../report/ci/summary.ts";
import { loadResultsFile } from "./io.ts";

Deno.test("the same results against themselves: every verdict same, no rule fires", () => {
  const results = makeSeed000(3);
  const gate = gateAgainstBaseline(results, results, [parseFailOn("p99 +10%"), parseFailOn("rps -5%")]);
  assert.ok(gate.groups.length >= 6);
  assert.equal(gate.failed, false);
  assert.deepEqual(gate.otherMachine, []);
  for (const g of gate.groups) {
    for (const m of g.metrics) {
      assert.ok(m.verdict === "same" || m.verdict === "unknown", `${g.key} ${m.metric}`);
    }
  }
  const byRepeats = gate.groups.find((g) => g.key === "redis-cache/high")!;
  assert.equal(byRepeats.metrics[0].noise, "repeats");
});

Deno.test("a 50% slower variant is worse beyond noise and fails a 10% rule, not an 80% one", () => {
  const base = makeSeed000(3), slow = makeSeed000(3, 20, 1.5);
  const gate = gateAgainstBaseline(base, slow, [parseFailOn("p50 +10%"), parseFailOn("p50 +80%")]);
  const cached = gate.groups.find((g) => g.key === "redis-cache/high")!;
  const p50 = cached.metrics.find((m) => m.metric === "p50")!;
  assert.equal(p50.verdict, "worse");
  assert.ok(p50.changePct > 40 && p50.changePct < 60, String(p50.changePct));
  // The interval is a ratio's (latency is judged on a log scale): above no change, around the point.
  const [low, high] = p50.changeCi95Pct!;
  assert.ok(low > 0 && low < p50.changePct && high > p50.changePct, `${low} ${p50.changePct} ${high}`);
  assert.deepEqual(p50.failed, ["p50 +10%"]);
  assert.equal(gate.failed, true);
  const untouched = gate.groups.find((g) => g.key === "no-cache/high")!;
  assert.ok(untouched.metrics.every((m) => m.failed.length === 0));
  assert.match(
    verdictText(p50, cached, gate),
    /^worse: [\d.]+ → [\d.]+ ms, \+\d+\.\d% \(geometric mean of the repeats' p50s; noise interval \+\d+\.\d% to \+\d+\.\d%; Welch over 3\+3 repeats\); FAILS p50 \+10%$/,
  );
});

Deno.test("one repeat per side: the within-run interval variation, and the text says so", () => {
  const base = makeSeed000(1), slow = makeSeed000(1, 20, 1.5);
  const gate = gateAgainstBaseline(base, slow, [parseFailOn("p50 +10%")]);
  const cached = gate.groups.find((g) => g.key === "redis-cache/high")!;
  const p50 = cached.metrics.find((m) => m.metric === "p50")!;
  assert.equal(p50.noise, "within-run");
  assert.match(verdictText(p50, cached, gate), /within-run interval variation: 1\+1 runs/);
  assert.equal(p50.verdict, "worse");
});

Deno.test("one run on one side, repeats on the other: still the within-run variation, and it says 1+3", () => {
  const base = makeSeed000(1), current = makeSeed000(3, 20, 1.5);
  const gate = gateAgainstBaseline(base, current, []);
  assert.equal(gate.groups.filter((g) => g.currentRuns === 3).length, 8, "the repeated groups");
  for (const g of gate.groups.filter((g) => g.currentRuns === 3)) {
    assert.equal(g.baselineRuns, 1);
    for (const m of g.metrics) {
      assert.equal(m.noise, "within-run", `${g.key} ${m.metric}`);
      assert.match(
        verdictText(m, g, gate),
        /within-run interval variation: 1\+3 runs, too few repeats for Welch/,
      );
    }
  }
});

Deno.test("runs that stopped early (an abortOnFail, Ctrl-C) are left out of the gate and listed", () => {
  const base = makeSeed000(3), slow = makeSeed000(3, 20, 1.5);
  const aborted = slow.runs.findIndex((r) => r.name === "redis-cache/high#0");
  slow.runs[aborted] = {
    ...slow.runs[aborted],
    incomplete: true,
    abortedBy: { threshold: "p50<1ms", atSec: 2, actual: 13 },
  };
  const gate = gateAgainstBaseline(base, slow, []);
  assert.deepEqual(gate.leftOut, ["redis-cache/high#0"]);
  assert.equal(gate.groups.find((g) => g.key === "redis-cache/high")!.currentRuns, 2);
  assert.match(renderMarkdownSummary(slow, { gate }), /Left out, stopped early: redis-cache\/high\\#0\./);
});

Deno.test("a baseline from another machine is flagged on every verdict; unpaired runs are listed", () => {
  const base = makeSeed000(2), current = makeSeed000(2);
  const { cores } = current.environment;
  current.environment = { ...current.environment, cpu: "another CPU", cores: cores + 2, os: "linux 5.15.0" };
  current.runs.push({ ...current.runs[0], name: "new/load#0" });
  const gate = gateAgainstBaseline(base, current, []);
  assert.deepEqual(environmentDiff(base, current), ["cpu", "cores", "os"]);
  assert.deepEqual(gate.unpaired, ["new/load"]);
  for (const g of gate.groups) {
    for (const m of g.metrics) {
      assert.match(verdictText(m, g, gate), /baseline from another machine\/build: cpu, cores, os differ$/);
    }
  }
});

Deno.test("other processes' CPU during either side's runs is named in every verdict of the pair", () => {
  const base = makeSeed000(2), current = makeSeed000(2);
  base.runs.find((r) => r.name === "no-cache/high#1")!.hostCpu = { otherCores: 1.1, cores: 2 };
  current.runs.find((r) => r.name === "no-cache/high#0")!.hostCpu = { otherCores: 0.6, cores: 2 };
  current.runs.find((r) => r.name === "redis-cache/high#0")!.hostCpu = { otherCores: 0.1, cores: 2 };
  const gate = gateAgainstBaseline(base, current, []);
  for (const g of gate.groups) {
    for (const m of g.metrics) {
      const text = verdictText(m, g, gate);
      if (g.key !== "no-cache/high") assert.doesNotMatch(text, /other processes/, g.key);
      else {
        assert.match(
          text,
          /; other processes took 1.1 of the 2 cores during the baseline's run no-cache\/high#1, other processes took 0.6 of the 2 cores during this run's no-cache\/high#0$/,
        );
      }
    }
  }
});

Deno.test("the markdown summary carries the gate's verdicts", () => {
  const base = makeSeed000(3), slow = makeSeed000(3, 20, 1.5);
  const gate = gateAgainstBaseline(base, slow, [parseFailOn("p50 +10%")]);
  const md = renderMarkdownSummary(slow, { gate });
  assert.match(md, /### Against the baseline: ❌ worse than the baseline past a --fail-on rule/);
  assert.match(md, /\| redis-cache\/high \| p50 ms \| [\d.]+ \| [\d.]+ \| ❌ worse: [\d.]+ → [\d.]+ ms, \+/);
  assert.ok(!renderMarkdownSummary(slow).includes("Against the baseline"), "no section without a gate");
});

Deno.test("a rule no trusted pair has a verdict on is unjudged, with the reason that holds", () => {
  const results = makeSeed000(1);
  const rules = [parseFailOn("p99 +10%")];
  const paired = gateAgainstBaseline(results, results, rules);
  assert.ok(paired.groups.some((g) => !g.flagged && g.metrics.some((m) => m.verdict !== "unknown")));
  assert.deepEqual(paired.unjudged, []);
  assert.deepEqual(gateAgainstBaseline(results, results, []).unjudged, [], "no rule, nothing to judge");
  // No intervals on either side: no noise to measure, so no verdict on any metric.
  const blind = { ...results, runs: results.runs.map((r) => ({ ...r, intervals: [] })) };
  const gate = gateAgainstBaseline(blind, blind, rules);
  assert.deepEqual(gate.unjudged, [{
    rule: "p99 +10%",
    reason:
      "no trusted pair has a verdict on p99: runs too short for three batches (0 and 0): a run needs 3 " +
      "intervals, 3s or more after its warm-up at --interval 1s (-d 3s, or a larger -n), or repeats on both " +
      "sides (repeats: 3)",
  }]);
  assert.match(
    renderMarkdownSummary(blind, { gate }),
    /❌ not judged.*\n[^]*Rule "p99 \+10%" checked no run/,
  );
});

Deno.test("a baseline of HTTP requests paired with a run of WebSocket messages passes no rule: it is not judged", () => {
  const base = makeSeed000(3);
  const ws = structuredClone(base);
  for (const run of ws.runs) run.url = run.url.replace(/^http/, "ws");
  const gate = gateAgainstBaseline(base, ws, [parseFailOn("p99 +10%"), parseFailOn("rps -5%")]);
  assert.equal(gate.failed, false);
  assert.deepEqual(gate.unjudged.map((u) => u.rule), ["p99 +10%", "rps -5%"]);
  assert.match(
    gate.groups[0].flagged ?? "",
    /^not comparable: baseline measured HTTP requests, this run WebSocket messages/,
  );
  // A storm against kept connections is another kind too.
  const storm = structuredClone(ws);
  for (const run of storm.runs) run.config = { ...run.config, ws: { messagesPerConnection: 10 } };
  assert.equal(gateAgainstBaseline(ws, storm, [parseFailOn("p99 +10%")]).unjudged.length, 1);
});

Deno.test("the interval shown never contradicts the verdict; an unknown one says why instead", () => {
  const pairs = [
    [makeSeed000(3), makeSeed000(3, 20, 1.5)],
    [makeSeed000(1), makeSeed000(1, 20, 1.5)],
    [
      makeSeed000(2, 20, 0.6),
      makeSeed000(2),
    ],
    [makeSeed000(1), makeSeed000(3)],
    [makeSeed000(1, 20, 1.5), makeSeed000(1)],
  ];
  const seen = new Set<string>();
  for (const [base, current] of pairs) {
    const gate = gateAgainstBaseline(base, current, []);
    for (const g of gate.groups) {
      for (const m of g.metrics) {
        seen.add(m.verdict);
        const where = `${g.key} ${m.metric}: ${verdictText(m, g, gate)}`;
        // The cell's two numbers are the ones the change was taken between, whatever the run's own figure.
        const [from, to] = m.compared;
        if (m.metric !== "success" && from > 0) {
          assert.ok(Math.abs(((to - from) / from) * 100 - m.changePct) < 0.1, where);
        }
        assert.ok(verdictText(m, g, gate).includes(`(${m.statistic}; `), where);
        if (m.verdict === "unknown") {
          assert.ok(m.notJudged && m.changeCi95Pct === null && m.diffCi95 === null, where);
          assert.ok(verdictText(m, g, gate).includes(`; not judged: ${m.notJudged};`), where);
          continue;
        }
        for (const [low, high] of [m.changeCi95Pct!, m.diffCi95!]) {
          assert.equal(low > 0 || high < 0, m.verdict !== "same", where);
        }
      }
    }
  }
  assert.deepEqual([...seen].sort(), ["better", "same", "unknown", "worse"], "every verdict met");
});

Deno.test("a 'same' whose noise interval reaches past a rule's tolerance passes nothing: not judged, with how far", () => {
  // One run twice, every third interval's p99 six times the rest (a machine's stalls): wide noise.
  const base = makeSingleAttack(), spiky = structuredClone(base);
  for (const run of [...base.runs, ...spiky.runs]) {
    run.intervals = run.intervals.map((iv, i) => i % 3 === 0 ? { ...iv, p99: iv.p99 * 6 } : iv);
  }
  const gate = gateAgainstBaseline(base, spiky, [parseFailOn("p99 +10%"), parseFailOn("p99 +900%")]);
  const p99 = gate.groups[0].metrics.find((m) => m.metric === "p99")!;
  assert.equal(p99.verdict, "same");
  assert.ok(p99.changeCi95Pct![1] > 10 && p99.changeCi95Pct![1] < 900, JSON.stringify(p99));
  // "+10%" cannot be told from noise here; "+900%" can.
  assert.equal(gate.unjudged.length, 1, JSON.stringify(gate.unjudged));
  assert.equal(gate.unjudged[0].rule, "p99 +10%");
  assert.match(
    gate.unjudged[0].reason,
    /^p99 is within noise, but its noise interval reaches \+[\d.]+%, past the rule's \+10%: a change that large reads as noise in these runs; run repeats on both sides \(repeats: 3\) or on a quieter machine$/,
  );
  // A baseline of three repeats: the advice names what this run lacks, not the repeats the baseline has.
  const three = { ...base, runs: [0, 1, 2].map((i) => ({ ...base.runs[0], name: `attack#${i}` })) };
  const lacking = gateAgainstBaseline(three, spiky, [parseFailOn("p99 +10%")]).unjudged[0];
  assert.match(lacking.reason, /run repeats of this run \(repeats: 3, as the baseline has; this run has 1\)/);
});

Deno.test("a change past what the slower run's own waits can make is judged, the margin in its cell", () => {
  const base = makeSingleAttack(), slow = structuredClone(base);
  for (const [file, factor] of [[base, 1], [slow, 4]] as const) {
    for (const run of file.runs) {
      run.intervals = run.intervals.map((iv) => ({
        ...iv,
        p50: iv.p50 * factor,
        p99: iv.p99 * factor,
        generatorWaitPct: 10,
        wakeWaitMs: 0.1,
      }));
    }
  }
  const gate = gateAgainstBaseline(base, slow, [parseFailOn("p50 +50%")]);
  const p50 = gate.groups[0].metrics.find((m) => m.metric === "p50")!;
  assert.equal(p50.verdict, "worse");
  assert.match(
    verdictText(p50, gate.groups[0], gate),
    /; noise interval \+[\d.]+% to \+[\d.]+%, beyond what the slower side's own waits \(the load worker waited for a core 10% of the time, 0\.1 ms at each wake-up\) move [\d.]+ ms to [\d.]+ ms at most, [\d.]+ ms measured; /,
  );
});

Deno.test("a change past the rule that wide noise calls 'same' is not judged, with the batches that settle it", () => {
  const base = makeSingleAttack(), slower = structuredClone(base);
  for (const [file, factor] of [[base, 1], [slower, 1.15]] as const) {
    file.runs[0].intervals = file.runs[0].intervals.map((iv, i) => ({
      ...iv,
      p99: iv.p99 * factor * (1 + ((i * 37) % 11)) ** 2,
    }));
  }
  const gate = gateAgainstBaseline(base, slower, [parseFailOn("p99 +10%")]);
  const p99 = gate.groups[0].metrics.find((m) => m.metric === "p99")!;
  assert.equal(p99.verdict, "unknown", JSON.stringify(p99));
  assert.match(
    p99.notJudged!,
    /^p99 \+[\d.]+% is past the rule's \+10% but within noise: judged with about \d+ times the batches \(runs \d+ times as long\), repeats on both sides \(repeats: 3\) or a quieter machine$/,
  );
  assert.equal(gate.unjudged[0].rule, "p99 +10%");
  assert.equal(gate.failed, false);
});

/** A recorded run of the built-in target (`attack /sleep?ms=N -c 10 -d 8s`): tests/fixtures/gate_runs/. */
const recorded = (name: string) =>
  loadResultsFile(new URL(`../tests/fixtures/gate_runs/${name}.json`, import.meta.url).pathname);

Deno.test("a baseline recorded beside two busy loops: a 20% slower sleep on a quieter machine is never passed", async () => {
  // busy_sleep5: /sleep?ms=5 beside two nice 0 loops (load 4); quiet_*: without (load 1.2-1.6), 5 and 6 ms.
  const base = await recorded("busy_sleep5"), rules = [parseFailOn("p99 +10%")];
  const self = gateAgainstBaseline(base, await recorded("quiet_sleep5"), rules);
  assert.equal(self.failed, false);
  const slow = gateAgainstBaseline(base, await recorded("quiet_sleep6"), rules);
  const p99 = slow.groups[0].metrics.find((m) => m.metric === "p99")!;
  assert.match(verdictText(p99, slow.groups[0], slow), /^worse: .*judged at the floor.*FAILS p99 \+10%$/);
  // The same baseline as an older file that recorded no waits: its stalls would read as the server's, and
  // the slower server's p99 as "better"; without them it passes no latency rule.
  const blind = gateAgainstBaseline(withoutWaits(base), await recorded("quiet_sleep6"), [
    parseFailOn("p99 +5%"),
  ]);
  assert.match(
    blind.groups[0].metrics.find((m) => m.metric === "p99")!.notJudged ?? "",
    /^the baseline records no waits for a core/,
  );
  assert.deepEqual(blind.unjudged.map((u) => u.rule), ["p99 +5%"]);
});

Deno.test("a baseline that records no waits passes no latency or rate rule; it still fails a regression", async () => {
  // busy_sleep5 recorded beside two busy loops, as an older loadlab wrote it: its p99 is its stalls, and
  // a 20% slower server on a quiet machine read "better" at p99 and within 10% at the floor: it passed.
  const old = withoutWaits(await recorded("busy_sleep5")), slow = await recorded("quiet_sleep6");
  const rules = ["p99 +10%", "rps -10%", "success -1pp"].map(parseFailOn);
  const gate = gateAgainstBaseline(old, slow, rules);
  assert.equal(gate.failed, false);
  assert.deepEqual(gate.unjudged.map((u) => u.rule), ["p99 +10%", "rps -10%"]);
  for (const u of gate.unjudged) {
    assert.match(
      u.reason,
      /the baseline records no waits for a core .*record the baseline again with this loadlab/,
    );
  }
  const success = gate.groups[0].metrics.find((m) => m.metric === "success")!;
  assert.deepEqual([success.verdict, success.failed], ["same", []]);
  // A quiet baseline without waits: the slower server's own waits are recorded, and it still fails.
  const quiet = gateAgainstBaseline(withoutWaits(await recorded("quiet_sleep5")), slow, rules.slice(0, 1));
  assert.deepEqual([quiet.failed, quiet.unjudged], [true, []]);
});

Deno.test("a p99 is weighed against the busiest interval's waits: the same server never fails beside others' work", async () => {
  // shared_sleep5: the same /sleep?ms=5 as quiet_sleep5, while other processes took 1.9 of the 2 cores.
  const base = await recorded("quiet_sleep5"), rules = [parseFailOn("p99 +10%")];
  const self = gateAgainstBaseline(base, await recorded("shared_sleep5"), rules);
  const p99 = self.groups[0].metrics.find((m) => m.metric === "p99")!;
  assert.equal(self.failed, false, verdictText(p99, self.groups[0], self));
  assert.match(
    p99.notJudged ?? "",
    /own waits \(in its busiest interval the load worker waited for a core [\d.]+% of/,
  );
  assert.equal(
    gateAgainstBaseline(base, await recorded("quiet_sleep6"), rules).failed,
    true,
    "a 20% slower sleep",
  );
});

Deno.test("a pair flagged for server errors checks a success rule: the share it is flagged for is measured", async () => {
  // errors_sleep5: /sleep?ms=5 199 to 1 with /error/1, a 500: 0.5% server errors.
  const errors = await recorded("errors_sleep5"), clean = await recorded("quiet_sleep5");
  // The same requests on both sides (a server that stopped failing), so the pair is comparable.
  clean.runs[0].config.requestMix = errors.runs[0].config.requestMix;
  const rules = [parseFailOn("success -0.1pp")];
  const fixed = gateAgainstBaseline(errors, clean, rules);
  assert.equal(fixed.groups[0].flagged, "baseline: server errors 0.5%");
  assert.deepEqual([fixed.failed, fixed.unjudged], [false, []]);
  const broken = gateAgainstBaseline(clean, errors, rules);
  assert.deepEqual(broken.groups[0].metrics.find((m) => m.metric === "success")!.failed, ["success -0.1pp"]);
  // Its latencies are the error path's: a latency rule it passes is still not judged.
  assert.deepEqual(gateAgainstBaseline(errors, clean, [parseFailOn("p50 +500%")]).unjudged.length, 1);
});

Deno.test("a baseline of another load (connections, duration) is not comparable: said, never judged", async () => {
  const base = await recorded("quiet_sleep5"), current = await recorded("quiet_sleep6");
  current.runs[0].config = { ...current.runs[0].config, connections: 20, durationMs: 4000 };
  const gate = gateAgainstBaseline(base, current, [parseFailOn("p99 +10%"), parseFailOn("rps -10%")]);
  assert.equal(gate.failed, false);
  const why = "not comparable: the loads differ (connections 10 → 20, durationMs 8000 → 4000); record " +
    "the baseline with this run's load (-d 4s)";
  assert.equal(gate.groups[0].flagged, why);
  for (const m of gate.groups[0].metrics) assert.deepEqual([m.verdict, m.notJudged], ["unknown", why]);
  assert.deepEqual(gate.unjudged.map((u) => u.reason), [
    `every paired run is flagged (${why}): untrusted ` +
    "numbers pass no rule",
    `every paired run is flagged (${why}): untrusted numbers pass no rule`,
  ]);
});

Deno.test("a change short of the noise bar passes a rule its whole interval stays within, never one it reaches", async () => {
  // 4 s of /sleep?ms=5 and of ms=10 on a shared machine: p50 about +36%, 4.1 standard errors where 7.1 judge.
  const base = await recorded("shared_4s_sleep5"), slow = await recorded("shared_4s_sleep10");
  const loose = gateAgainstBaseline(base, slow, [parseFailOn("p50 +1000%"), parseFailOn("p99 +5000%")]);
  assert.deepEqual([loose.failed, loose.unjudged], [false, []]);
  const p50 = loose.groups[0].metrics.find((m) => m.metric === "p50")!;
  assert.equal(p50.verdict, "unknown");
  assert.match(p50.notJudged!, /beyond noise needs [\d.]+; within p50 \+1000% at its interval's far end/);
  const tight = gateAgainstBaseline(base, slow, [parseFailOn("p50 +100%")]);
  assert.equal(tight.failed, false);
  assert.equal(tight.unjudged.length, 1, "an interval reaching past the rule leaves it unjudged (exit 8)");
});

Deno.test("requests sent with other headers are another measurement, named by header; a rotated token is not", async () => {
  const base = await recorded("quiet_sleep5"), current = await recorded("quiet_sleep6");
  const sent = (r: typeof base, headers: [string, string][]) => {
    const mix = r.runs[0].config.requestMix as Record<string, unknown>[];
    r.runs[0].config = { ...r.runs[0].config, requestMix: mix.map((m) => ({ ...m, headers })) };
  };
  const token = (n: number) =>
    ["Authorization", `[redacted 20 chars sha256:0000000${n}]`] as [string, string];
  sent(base, [["Accept-Encoding", "gzip"], token(1)]);
  sent(current, [["accept-encoding", "br"], token(2)]);
  const gate = gateAgainstBaseline(base, current, [parseFailOn("p99 +10%")]);
  const why = "not comparable: the loads differ (header accept-encoding sent otherwise); record the " +
    "baseline with this run's load";
  assert.equal(gate.groups[0].flagged, why);
  assert.equal(gate.failed, false);
  sent(current, [["accept-encoding", "gzip"], token(2)]);
  assert.equal(gateAgainstBaseline(base, current, []).groups[0].flagged, undefined);
  sent(current, [["accept-encoding", "gzip"]]);
  assert.match(
    gateAgainstBaseline(base, current, []).groups[0].flagged!,
    /\(header authorization sent otherwise\)/,
  );
});

Deno.test("JUnit holds a case per --fail-on rule: failed with its cell, not judged with why, else passed", async () => {
  const base = await recorded("quiet_sleep5"), slow = await recorded("quiet_sleep6");
  const rules = ["p99 +10%", "p99 +500%", "success -0.1pp"].map(parseFailOn);
  const xml = renderJunit(slow, { gate: gateAgainstBaseline(base, slow, rules) });
  assert.match(xml, /<testsuites name="loadlab" tests="3" failures="1" /);
  assert.match(
    xml,
    /<testcase classname="loadlab.baseline" name="p99 \+10%">\n\s+<failure type="baseline-gate" message="attack p99: worse: [^"]+FAILS p99 \+10%"/,
  );
  assert.match(xml, /<testcase classname="loadlab.baseline" name="p99 \+500%"\/>/);
  const other = { ...slow, runs: slow.runs.map((r) => ({ ...r, config: { ...r.config, connections: 20 } })) };
  const unjudged = renderJunit(other, { gate: gateAgainstBaseline(base, other, rules.slice(0, 1)) });
  assert.match(
    unjudged,
    /name="p99 \+10%">\n\s+<failure type="not-judged" message="checked no run: every paired run is flagged \(not comparable: /,
  );
});

Deno.test("drops where the baseline dropped none fail a dropped rule; the runner's stalls leave them unjudged", async () => {
  const dropping = <T extends { runs: { requests: number; droppedSends: number }[] }>(
    file: T,
    share: number,
  ) => {
    const copy = structuredClone(file);
    for (const r of copy.runs) r.droppedSends = Math.round((r.requests * share) / (1 - share));
    return copy;
  };
  const base = makeSingleAttack(), slow = makeSingleAttack();
  slow.runs[0].latencyMs = { ...slow.runs[0].latencyMs, p50: slow.runs[0].latencyMs.p50 * 4 };
  const rules = [parseFailOn("dropped +1pp"), parseFailOn("p99 +50%")];
  const gate = gateAgainstBaseline(base, dropping(slow, 0.3), rules);
  const dropped = gate.groups[0].metrics.find((m) => m.metric === "dropped")!;
  assert.deepEqual([dropped.verdict, dropped.failed, gate.failed], ["worse", ["dropped +1pp"], true]);
  assert.match(
    verdictText(dropped, gate.groups[0], gate),
    /^worse: 0 → 30 %, \+30 pp .*FAILS dropped \+1pp$/,
  );
  // Without a dropped rule the drops flag the pair: a latency rule is not judged (8), never passed.
  const latencyOnly = gateAgainstBaseline(base, dropping(slow, 0.3), [parseFailOn("p99 +50%")]);
  assert.deepEqual([latencyOnly.failed, latencyOnly.unjudged.map((u) => u.rule)], [false, ["p99 +50%"]]);
  // Both sides dropping: the share past the knee is not judged.
  const both = gateAgainstBaseline(dropping(base, 0.2), dropping(slow, 0.3), rules);
  assert.match(both.unjudged[0].reason, /the baseline dropped 20% too, and this run less than twice that/);
  assert.equal(gateAgainstBaseline(dropping(base, 0.002), dropping(slow, 0.3), rules).failed, true);
  // A recorded run whose own waits explain its latency: its drops may be the runner's.
  const quiet = await recorded("quiet_sleep5");
  const stalled = gateAgainstBaseline(quiet, dropping(quiet, 0.2), [parseFailOn("dropped +1pp")]);
  assert.equal(stalled.failed, false);
  assert.match(stalled.unjudged[0].reason, /this run dropped 20%, which the runner's stalls may have made/);
  assert.throws(() => parseFailOn("dropped +1%"), /dropped is a share of intended sends: write \+1pp/);
});

Deno.test("a results.json without environment reads as another machine, not refused", async () => {
  const file = JSON.parse(
    await Deno.readTextFile(new URL("../tests/fixtures/gate_runs/quiet_sleep5.json", import.meta.url)),
  );
  delete file.environment;
  const path = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(path, JSON.stringify(file));
    const gate = gateAgainstBaseline(await loadResultsFile(path), await recorded("quiet_sleep5"), []);
    assert.deepEqual(gate.otherMachine, ["cpu", "cores", "os", "loadlab", "deno"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("a baseline from fewer or other cores fails no latency rule; a stopped or moved one is said", async () => {
  const base = await recorded("quiet_sleep5"), slow = await recorded("quiet_sleep6");
  const big = structuredClone(base);
  big.environment = { ...big.environment, cores: 64 };
  const gate = gateAgainstBaseline(big, slow, [parseFailOn("p99 +10%")]);
  assert.equal(gate.failed, false);
  assert.match(
    gate.unjudged[0].reason,
    /worse past p99 \+10%, but the baseline ran on another machine \(cores 64 → /,
  );
  // A baseline stopped early pairs nothing: said as such, not as another experiment's file.
  const stopped = structuredClone(base);
  stopped.runs = stopped.runs.map((r) => ({ ...r, incomplete: true }));
  const left = gateAgainstBaseline(stopped, slow, [parseFailOn("p99 +10%")]);
  assert.deepEqual(left.unpaired, []);
  assert.match(left.unjudged[0].reason, /^nothing paired: baseline's \S+ stopped early/);
  // Another origin pairs as the same load, and the pair says so.
  const moved = structuredClone(base);
  moved.runs = moved.runs.map((r) => ({ ...r, url: "http://10.0.0.7:8080/sleep?ms=5" }));
  assert.match(gateAgainstBaseline(moved, slow, []).groups[0].target!, /^http:\/\/10\.0\.0\.7:8080 → http/);
});
