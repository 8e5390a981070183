import assert from "node:assert/strict";
import { makeSeed000 } from "../tests/fixtures/make_results.ts";
import { parseResultsFile } from "./mod.ts";
import { encodingOf, zigzag } from "../tests/fixtures/hdr_encoding.ts";

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

Deno.test("parseResultsFile refuses a histogram encoding it cannot read, by its path, in every place one is kept", async () => {
  const fixture = await Deno.readTextFile(
    new URL("../tests/fixtures/results_v3_endpoints.json", import.meta.url),
  );
  // A count after a run of 2^40 empty indexes: the library's decoder walks every one (it would hang
  // the report or a gate that adds it); and an encoding damaged in transit (its zlib check broken).
  const pastAnyIndex = encodingOf([...zigzag(-(2 ** 40)), 0x0a]);
  const good = JSON.parse(fixture).runs[0].histogramEncoded as string;
  const damaged = good.slice(0, -8) + "AAAAAAA=";
  type Run = {
    histogramEncoded: string;
    intervals: { histogramEncoded?: string }[];
    endpoints: { histogramEncoded: string | null }[];
  };
  const places: [string, (run: Run, bad: string) => void][] = [
    ["runs[0].histogramEncoded", (run, bad) => run.histogramEncoded = bad],
    ["runs[0].intervals[1].histogramEncoded", (run, bad) => run.intervals[1].histogramEncoded = bad],
    ["runs[0].endpoints[0].histogramEncoded", (run, bad) => run.endpoints[0].histogramEncoded = bad],
  ];
  for (const [path, put] of places) {
    for (
      const [bad, why] of [[pastAnyIndex, /past any value a histogram holds/], [
        damaged,
        /not a compressed/,
      ]] as const
    ) {
      const json = JSON.parse(fixture);
      put(json.runs[0], bad);
      const parsed = parseResultsFile(json);
      assert.ok(!parsed.ok, `${path} accepted`);
      assert.ok(parsed.problem.startsWith(`${path}: `), parsed.problem);
      assert.match(parsed.problem, why);
      assert.match(parsed.problem, /restore the file loadlab wrote, or remove this histogram/);
    }
  }
  assert.ok(parseResultsFile(JSON.parse(fixture)).ok, "the fixture as written reads");
});

Deno.test("parseResultsFile refuses a negative count or one past 2^53, naming its path", () => {
  // A run of -5 requests and -100 responses of status 200 was drawn as such, its verdict 'lost 0, errors 0%';
  // one of 1e308 requests was drawn and gated as well.
  for (
    const spoil of [
      (j: any) => j.runs[0].requests = -5,
      (j: any) => j.runs[0].statusCodes["200"] = -100,
      (j: any) => j.runs[0].requests = 1e308,
    ]
  ) {
    const json = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
    spoil(json);
    const parsed = parseResultsFile(json);
    assert.ok(!parsed.ok);
    assert.match(
      parsed.problem,
      /^runs\[0\](\.requests|\.statusCodes\["200"\]): a count is from 0 to 2\^53; restore the file loadlab wrote \(found (-|1e\+308)/,
    );
  }
});

Deno.test("parseResultsFile refuses percentiles out of order by the first that falls, and reads a hair's rounding", () => {
  const json = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
  json.runs[0].latencyMs.p99 = json.runs[0].latencyMs.p50 / 2;
  const parsed = parseResultsFile(json);
  assert.ok(!parsed.ok);
  assert.match(
    parsed.problem,
    /^runs\[0\]\.latencyMs\.p99: percentiles rise from p2_5 to p9999, found p99 .* below p97_5 .*restore the file/,
  );
  const rounded = JSON.parse(JSON.stringify(makeSeed000(1, 5)));
  rounded.runs[0].latencyMs.p95 = rounded.runs[0].latencyMs.p90 * (1 - 1e-12);
  assert.ok(parseResultsFile(rounded).ok);
});

Deno.test("a results.json of a newer schema is refused as a newer loadlab's, saying to upgrade", () => {
  const parsed = parseResultsFile({ schema: "loadlab.results/v4", runs: "whatever a newer loadlab writes" });
  assert(
    !parsed.ok &&
      /"loadlab\.results\/v4" is a newer loadlab's; this one reads v1 to v3: upgrade/.test(parsed.problem),
  );
});

Deno.test("a rate, length or share no writer makes (negative, a success rate past 1) is refused with its path", () => {
  for (
    const [field, value, message] of [
      ["rps", -1, /^runs\[0\]\.rps: 0 or more; restore the file loadlab wrote/],
      ["durationSec", -5, /^runs\[0\]\.durationSec: 0 or more/],
      ["successRate", 1e308, /^runs\[0\]\.successRate: a share from 0 to 1/],
    ] as const
  ) {
    const file = JSON.parse(JSON.stringify(makeSeed000(1)));
    file.runs[0][field] = value;
    const parsed = parseResultsFile(file);
    assert(!parsed.ok && message.test(parsed.problem), `${field}: ${JSON.stringify(parsed)}`.slice(0, 300));
  }
});
