import assert from "node:assert/strict";
import { makeSeed000 } from "../tests/fixtures/make_results.ts";
import { parseResultsFile } from "./parse.ts";

Deno.test("parseResultsFile accepts a results file that went through JSON, with unknown keys", () => {
  const json = JSON.parse(JSON.stringify({ ...makeSeed000(1, 5), futureField: { x: 1 } }));
  json.runs[0].latencyMs.p9999 = null; // NaN written by JSON.stringify
  const parsed = parseResultsFile(json);
  assert.ok(parsed.ok);
  assert.ok(Number.isNaN(parsed.results.runs[0].latencyMs.p9999));
  assert.deepEqual((parsed.results as unknown as { futureField: unknown }).futureField, { x: 1 });
});

Deno.test("parseResultsFile names the path of the first problem", () => {
  const json = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
  delete json.runs[1].url;
  const parsed = parseResultsFile(json);
  assert.ok(!parsed.ok);
  assert.match(parsed.problem, /^runs\[1\]\.url: missing; expected a string/);
  const other = parseResultsFile({ schema: "k6/summary" });
  assert.ok(!other.ok);
  assert.match(
    other.problem,
    /^schema: expected one of "loadlab.results\/v3", "loadlab.results\/v2", "loadlab.results\/v1", found "k6\/summary"/,
  );
});

Deno.test("parseResultsFile reads a v1 file as v3, with the v2 fields absent", () => {
  const json = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
  json.schema = "loadlab.results/v1";
  const parsed = parseResultsFile(json);
  assert.ok(parsed.ok);
  assert.equal(parsed.results.schema, "loadlab.results/v3");
  assert.equal(parsed.results.runs.length, json.runs.length);
  assert.equal(parsed.results.analysis, undefined);
  assert.equal(parsed.results.runs[0].intervals[0].histogramEncoded, undefined);
});

Deno.test("parseResultsFile reads an older file's non2xx as failedStatus, in intervals and phases", () => {
  const json = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
  const run = json.runs[0];
  const older = (iv: Record<string, unknown>) => {
    const { failedStatus, ...rest } = iv;
    return { ...rest, non2xx: failedStatus };
  };
  const counted = run.intervals.map((iv: { failedStatus: number }) => iv.failedStatus);
  run.intervals[0].failedStatus = 7;
  counted[0] = 7;
  run.intervals = run.intervals.map(older);
  run.phases = [{
    name: "p",
    startMs: 0,
    durationMs: 1000,
    requests: 10,
    rps: 10,
    successRate: 0.5,
    timeouts: 0,
    non2xx: 5,
    latencyMs: run.latencyMs,
  }];
  const parsed = parseResultsFile(json);
  assert.ok(parsed.ok, parsed.ok ? "" : parsed.problem);
  const read = parsed.results.runs[0];
  assert.deepEqual(read.intervals.map((iv) => iv.failedStatus), counted);
  assert.ok(read.intervals.every((iv) => !("non2xx" in iv)), "the older name is not carried along");
  assert.equal(read.phases?.[0].failedStatus, 5);
});

Deno.test("parseResultsFile reads a v2 file written by an earlier loadlab: no endpoints, the run's numbers intact", async () => {
  const json = JSON.parse(
    await Deno.readTextFile(new URL("../tests/fixtures/results_v2_mix.json", import.meta.url)),
  );
  assert.equal(json.schema, "loadlab.results/v2");
  const parsed = parseResultsFile(json);
  assert.ok(parsed.ok);
  assert.equal(parsed.results.schema, "loadlab.results/v3");
  const run = parsed.results.runs[0];
  assert.equal(run.endpoints, undefined);
  assert.equal(run.requests, json.runs[0].requests);
  assert.ok(run.requests > 0);
});
