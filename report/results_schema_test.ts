import assert from "node:assert/strict";
import { makeSeed000 } from "../tests/fixtures/make_results.ts";
import { parseResultsFile } from "./results_schema.ts";

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
  assert.match(parsed.problem, /^runs\.1\.url: Invalid input: expected string/);
  const other = parseResultsFile({ schema: "k6/summary" });
  assert.ok(!other.ok);
  assert.match(other.problem, /^schema: schema must be "loadlab.results\/v1"/);
});
