/**
 * The examples bench runs a script as `loadlab run` does: one that makes its metrics at its top level (as
 * k6's custom_metrics.js) runs there, its checks counted; one `loadlab run` refuses is refused with the
 * same words. Two small scripts against the bench's own local server.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runExamples } from "./k6_examples.ts";

Deno.test("the examples bench runs scripts as loadlab run does", async () => {
  const folder = Deno.makeTempDirSync({ prefix: "loadlab-k6-examples-" });
  Deno.writeTextFileSync(
    `${folder}/custom_metrics.js`,
    `import http from "k6/http";
import { check } from "k6";
import { Counter, Trend } from "k6/metrics";
const myCounter = new Counter("my_counter");
const myTrend = new Trend("my_trend");
export default function () {
  const res = http.get("http://httpbin.org/get");
  check(res, { "status is 200": (r) => r.status === 200 });
  myCounter.add(1);
  myTrend.add(res.timings.duration);
}
`,
  );
  // Run first, in the bench's process as in loadlab run's: a metric made at the next script's top level
  // is still that script's init code.
  Deno.writeTextFileSync(
    `${folder}/a_get.js`,
    `import http from "k6/http";\nexport default function () { http.get("http://httpbin.org/get"); }\n`,
  );
  Deno.writeTextFileSync(
    `${folder}/browser.js`,
    `import { browser } from "k6/browser";\nexport default function () {}\n`,
  );
  const outcomes = await runExamples(folder);
  assertEquals(outcomes.map((o) => [o.file, o.outcome]), [
    ["a_get.js", "runs"],
    ["browser.js", "refused"],
    ["custom_metrics.js", "runs"],
  ]);
  ok(outcomes[1].detail.includes("k6/browser drives a browser"), outcomes[1].detail);
  ok(outcomes[2].detail.endsWith("checks 2 of 2 passed"), outcomes[2].detail);
});
