import assert from "node:assert/strict";
import { makeSeed000 } from "../../../tests/fixtures/make_results.ts";
import { buildPageData } from "../page/data.ts";
import { ohaText } from "./tool_tables.ts";

Deno.test("oha text: connect times as oha's DNS+dialup line (average, fastest, slowest), left out without them", () => {
  const run = buildPageData(makeSeed000(1)).runs[0];
  const text = ohaText({ ...run, connectTimeMs: { min: 0.3, mean: 12.5, max: 21.8, p99: 21 } });
  assert.match(
    text,
    /Details \(average, fastest, slowest\):\n {2}DNS\+dialup:\t0\.0125 secs, 0\.0003 secs, 0\.0218 secs\n/,
  );
  assert.ok(
    text.indexOf("DNS+dialup") < text.indexOf("Status code distribution"),
    "before the status codes, as oha",
  );
  assert.ok(!ohaText({ ...run, connectTimeMs: null }).includes("DNS+dialup"));
});
