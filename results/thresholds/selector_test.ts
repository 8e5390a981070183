import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { evaluateThresholds, parseThreshold } from "./threshold.ts";
import { checkSelectors, fromK6 } from "./selector.ts";
import { formatThresholdActual } from "./text.ts";
import { parseResultsFile } from "../mod.ts";
import { ConfigError } from "../../validation/config_error.ts";

/** A real run of a 3:1 mix of `/json` and `/sleep?ms=20` against the built-in target. */
async function run() {
  const json = JSON.parse(
    await Deno.readTextFile(new URL("../../tests/fixtures/results_v3_endpoints.json", import.meta.url)),
  );
  const parsed = parseResultsFile(json);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.results.runs[0];
}

Deno.test("a selector in braces judges the rule on the endpoints it picks", async () => {
  const r = await run();
  const sleep = r.endpoints!.find((e) => e.name === "GET /sleep?ms=20")!;
  const t = parseThreshold("p50{name:GET /sleep?ms=20}<20ms");
  assertEquals(t.selector, { name: "GET /sleep?ms=20" });
  assertEquals([t.metric, t.value], ["p50", 20]);
  const [slow, whole] = evaluateThresholds([t, parseThreshold("p50<20ms")], [r]);
  assertEquals(slow.actual, sleep.latencyMs!.p50);
  // The sleep endpoint cannot answer within 20 ms; the run's median is a /json one.
  assertEquals([slow.ok, whole.ok], [false, true]);
  const [count] = evaluateThresholds([parseThreshold('requests{name:"GET /json"}==150')], [r]);
  assertEquals([count.actual, count.ok], [150, true]);
  // A method selects both: they pool, as k6 pools requests of one tag.
  const [both] = evaluateThresholds([parseThreshold("requests{method:GET}==200")], [r]);
  assertEquals(both.ok, true);
});

Deno.test("k6's form is the same rule", async () => {
  assertEquals(fromK6("http_req_duration{name:/login}: p(99)<200"), "p99{name:/login}<200ms");
  assertEquals(fromK6("http_req_duration{name:/login} avg<=1s"), "mean{name:/login}<=1s");
  assertEquals(fromK6("http_reqs{tier:db}: rate>100"), "rps{tier:db}>100");
  assertEquals(fromK6("http_req_failed{name:x}: rate<0.01"), "errorRate{name:x}<0.01");
  assertEquals(fromK6("p99<200ms"), null);
  const r = await run();
  const [k6, ours] = evaluateThresholds([
    parseThreshold("http_req_duration{name:GET /sleep?ms=20}: p(50)<20"),
    parseThreshold("p50{name:GET /sleep?ms=20}<20ms"),
  ], [r]);
  // k6's median lies between the two samples around its rank; loadlab's is the sample at it.
  assertEquals(k6.ok, ours.ok);
  ok(Math.abs(k6.actual - ours.actual) < ours.actual / 10, `${k6.actual} and ${ours.actual}`);
  assertEquals(formatThresholdActual(k6.expression, 21.5), "21.50 ms");
  assertEquals(formatThresholdActual("success{name:x}>99%", 0.5), "50.00%");
});

Deno.test("a selector that picks nothing is refused naming the endpoints; the run's own metrics are refused", async () => {
  const r = await run();
  const err = throws(
    () => checkSelectors([parseThreshold("p99{name:/nope}<1s")], r.endpoints!),
    (e: unknown) => {
      ok(e instanceof ConfigError);
      ok(
        /matches no endpoint; the endpoints are "GET \/json", "GET \/sleep\?ms=20"/.test(e.message),
        e.message,
      );
      return true;
    },
  );
  assertEquals(err, undefined);
  throws(() => parseThreshold("dropped{name:x}<1"), /not measured per endpoint/);
  throws(() => parseThreshold("p99{name:x}<1s over 5s"), /not per endpoint/);
  throws(() => parseThreshold("p99{name}<1s"), /selector \{name\}/);
  // A file without endpoints fails the rule unmeasured, never passes it.
  const [none] = evaluateThresholds([parseThreshold("p99{name:GET /json}<1s")], [{
    ...r,
    endpoints: undefined,
  }]);
  assertEquals(none.ok, false);
});

Deno.test("in k6's form every key in braces is a tag, kind too; in loadlab's, kind is an error kind", () => {
  const k6 = parseThreshold("http_req_duration{kind:html}: p(95)<500");
  assertEquals([k6.metric, k6.selector, k6.kind], ["p95", { kind: "html" }, undefined]);
  const own = parseThreshold("errorRate{kind:timeout}<1%");
  assertEquals([own.selector, own.kind], [undefined, "timeout"]);
});

Deno.test("k6's scenario tag is default on requests of no declared scenario", async () => {
  const r = await run();
  const [all, none] = evaluateThresholds(
    [parseThreshold("requests{scenario:default}==200"), parseThreshold("requests{scenario:browse}>0")],
    [r],
  );
  assertEquals([all.actual, all.ok, none.ok], [200, true, false]);
});
