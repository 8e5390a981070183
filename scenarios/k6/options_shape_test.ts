/**
 * Hostile and mistyped k6 `options` mapped by `k6Experiment`: every wrong type is a problem at its options
 * path naming what it should be, never a crash (a `null` stage), a silent misreading (a list of scenarios,
 * `noConnectionReuse: "no"`) or a `found null` (NaN and Infinity through JSON).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { k6Experiment } from "./options.ts";

/** The problems (`path: message`) of `options`, or [] when they map. */
function problems(options: Record<string, unknown>): string[] {
  const mapped = k6Experiment(options);
  return mapped.ok ? [] : mapped.issues.map((i) => `${i.path}: ${i.message}`);
}

function refused(options: Record<string, unknown>, path: string, why: RegExp): void {
  const found = problems(options);
  ok(found.some((p) => p.startsWith(`${path}: `) && why.test(p)), `${path} ${why}: ${found.join("\n")}`);
}

const si = (sc: Record<string, unknown>) => ({
  scenarios: { a: { executor: "shared-iterations", iterations: 1, ...sc } },
});

Deno.test("counts that are not whole numbers are refused at their path, NaN and Infinity named", () => {
  refused({ vus: "ten", duration: "1s" }, "options.vus", /whole number .*found "ten"/);
  refused({ vus: NaN, iterations: 2 }, "options.vus", /found NaN/);
  refused({ iterations: Infinity }, "options.iterations", /found Infinity/);
  refused({ iterations: -3 }, "options.iterations", /0 or more/);
  refused(si({ vus: 1.5 }), "options.scenarios.a.vus", /whole number/);
  refused(
    { scenarios: { a: { executor: "constant-arrival-rate", rate: "lots", duration: "1s" } } },
    "options.scenarios.a.rate",
    /found "lots"/,
  );
  refused({ iterations: 1, maxRedirects: -1 }, "options.maxRedirects", /whole number/);
});

Deno.test("stages, scenarios and thresholds of the wrong shape are refused, not crashed on or misread", () => {
  refused({ stages: [null] }, "options.stages[0]", /a stage must be \{ duration, target \}/);
  refused({ stages: [{ duration: "1s" }] }, "options.stages[0].target", /needs its target/);
  refused({ stages: [{ duration: "1s", target: -4 }] }, "options.stages[0].target", /0 or more/);
  refused(
    { scenarios: { a: { executor: "ramping-arrival-rate", stages: [null] } } },
    "options.scenarios.a.stages[0]",
    /stage/,
  );
  refused(
    { scenarios: [{ executor: "shared-iterations" }] },
    "options.scenarios",
    /object of name: scenario/,
  );
  refused({ scenarios: "x" }, "options.scenarios", /object of name: scenario/);
  refused({ scenarios: { a: null } }, "options.scenarios.a", /scenario must be an object/);
  refused(si({ exec: 5 }), "options.scenarios.a.exec", /must name an exported function/);
  refused(si({ executor: { name: "x" } }), "options.scenarios.a.executor", /executor's name/);
  refused({ iterations: 1, thresholds: ["p(95)<1"] }, "options.thresholds", /object of metric: rules/);
  refused({ iterations: 1, thresholds: "x" }, "options.thresholds", /object of metric: rules/);
});

Deno.test("switches are true or false and tags are text", () => {
  refused(
    { iterations: 1, noConnectionReuse: "no" },
    "options.noConnectionReuse",
    /true or false, found "no"/,
  );
  refused({ iterations: 1, insecureSkipTLSVerify: 1 }, "options.insecureSkipTLSVerify", /true or false/);
  refused({ iterations: 1, tags: 5 }, "options.tags", /object of name: text/);
  refused({ iterations: 1, tags: { a: { b: 1 } } }, "options.tags.a", /text/);
  refused(si({ env: { A: null } }), "options.scenarios.a.env.A", /text/);
  // As k6's (Go's JSON into strings, exit 104): numbers and booleans too.
  refused({ iterations: 1, tags: { build: 4711 } }, "options.tags.build", /text, found 4711/);
  refused(si({ tags: { canary: true } }), "options.scenarios.a.tags.canary", /text, found true/);
  refused(si({ env: { N: 1 } }), "options.scenarios.a.env.N", /text, found 1/);
});

Deno.test("summary stats and time units that are not k6's are refused at their path, the valid forms named", () => {
  refused(
    { iterations: 1, summaryTrendStats: ["avg", "p95"] },
    "options.summaryTrendStats[1]",
    /"p95" is not a trend stat: k6's are avg, min, med, max, count or p\(N\)/,
  );
  refused(
    { iterations: 1, summaryTrendStats: ["p(100.5)"] },
    "options.summaryTrendStats[0]",
    /N from 0 to 100/,
  );
  refused({ iterations: 1, summaryTrendStats: ["mean"] }, "options.summaryTrendStats[0]", /not a trend stat/);
  refused(
    { iterations: 1, summaryTrendStats: [" p(90)"] },
    "options.summaryTrendStats[0]",
    /not a trend stat/,
  );
  refused(
    { iterations: 1, summaryTrendStats: [95] },
    "options.summaryTrendStats[0]",
    /95 is not a trend stat/,
  );
  refused({ iterations: 1, summaryTrendStats: "avg,p(95)" }, "options.summaryTrendStats", /list of stats/);
  const all = ["avg", "min", "med", "max", "count", "p(0)", "p(95)", "p(99.9)", "p(99.99)", "p(100)"];
  assertEquals(problems({ iterations: 1, summaryTrendStats: all, summaryTimeUnit: "ms" }), []);
  // k6 checks a unit given as --summary-time-unit only: the script's is taken as given.
  assertEquals(problems({ iterations: 1, summaryTimeUnit: "sec" }), []);
});

Deno.test("well-typed options still map", () => {
  assertEquals(problems({ vus: 2, duration: "1s", tags: { team: "a" }, noConnectionReuse: true }), []);
  assertEquals(problems({ stages: [{ duration: "1s", target: 0 }, { duration: "1s", target: 5 }] }), []);
  assertEquals(problems(si({ vus: 2, iterations: 2, tags: { kind: "x" }, env: { A: "1" } })), []);
});
