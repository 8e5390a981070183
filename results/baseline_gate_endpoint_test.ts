import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { gateAgainstBaseline } from "./baseline_gate.ts";
import { parseFailOn } from "./fail_on.ts";
import { parseResultsFile, type ResultsFile, type RunResult } from "./mod.ts";

/** A real run of a 3:1 mix of `/json` and `/sleep?ms=20` against the built-in target. */
async function fixture(): Promise<ResultsFile> {
  const json = JSON.parse(
    await Deno.readTextFile(new URL("../tests/fixtures/results_v3_endpoints.json", import.meta.url)),
  );
  const parsed = parseResultsFile(json);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.results;
}

/** Two repeats of `run` (the noise of repeats: none, as they are equal). */
function repeats(file: ResultsFile, run: RunResult): ResultsFile {
  return { ...file, runs: [0, 1].map((k) => ({ ...run, name: `attack#${k}` })) };
}

Deno.test("--fail-on per endpoint: judged on that endpoint's numbers, not the run's", async () => {
  const file = await fixture();
  const run = file.runs[0];
  const [json, sleep] = run.endpoints!;
  // This time "GET /json" answered as slowly as the sleep did; the run as a whole is unchanged.
  const slower = { ...run, endpoints: [{ ...sleep, name: json.name }, sleep] };
  const rule = parseFailOn("p50{name:GET /json} +10%");
  assertEquals(rule.selector, { name: "GET /json" });
  const gate = gateAgainstBaseline(repeats(file, run), repeats(file, slower), [
    rule,
    parseFailOn("p50 +10%"),
  ]);
  assertEquals(gate.failed, true);
  const byKey = new Map(gate.groups.map((g) => [g.key, g]));
  const endpoint = byKey.get("attack {name:GET /json}")!;
  assertEquals(endpoint.metrics.find((m) => m.metric === "p50")!.failed, ["p50{name:GET /json} +10%"]);
  assertEquals(byKey.get("attack")!.metrics.find((m) => m.metric === "p50")!.failed, []);
  assertEquals(gate.unjudged, []);
  // The same rule on an endpoint that did not change passes.
  const other = gateAgainstBaseline(repeats(file, run), repeats(file, slower), [
    parseFailOn("p50{name:GET /sleep?ms=20} +10%"),
  ]);
  assertEquals(other.failed, false);
});

Deno.test("--fail-on per endpoint: one run a side cannot measure an endpoint's latency noise; said, not passed", async () => {
  const file = await fixture();
  const gate = gateAgainstBaseline(file, file, [parseFailOn("p99{name:GET /json} +10%")]);
  assertEquals(gate.failed, false);
  assertEquals(gate.unjudged.length, 1);
  ok(gate.unjudged[0].reason.includes("{name:GET /json}"), gate.unjudged[0].reason);
  throws(() => parseFailOn("p99{name} +10%"), /selector/);
});

Deno.test("--fail-on per endpoint: an endpoint whose query changed pairs by its path, as the whole run does", async () => {
  const file = await fixture();
  const run = file.runs[0];
  const [json, sleep] = run.endpoints!;
  const moved = { ...run, endpoints: [json, { ...sleep, name: "GET /sleep?ms=25" }] };
  for (const rule of ["p50{name:GET /sleep?ms=20} +10%", "p50{name:GET /sleep} +10%"]) {
    const gate = gateAgainstBaseline(repeats(file, run), repeats(file, moved), [parseFailOn(rule)]);
    assertEquals(gate.unjudged, [], rule);
    ok(gate.groups.some((g) => g.selector !== undefined), rule);
  }
});
