/**
 * A k6 script's `http.batch` on real worker isolates against the built-in target's `/sleep`: its requests
 * at once (within `batchPerHost`), each with its own `timings`, name and count; and its second origin (a
 * server of the test's) reached in the batch and alone; a request's own cookie jar kept apart from the VU's.
 * A bounded count.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";
import { checksOf, withOrigins } from "./fixtures/cookie_origin.ts";
import { withScriptVars } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

Deno.test("a k6 script's http.batch in parallel, and its second origin", () =>
  withOrigins(async (url, origin) => {
    const path = new URL("./fixtures/k6/batch_origins.js", import.meta.url).pathname;
    const run = await withScriptVars({ K6_OTHER: origin }, () =>
      runAttack(parseAttackConfig({
        url,
        model: "count",
        requests: 2,
        connections: 1,
        intervalMs: 100,
        timeoutMs: 10_000,
        script: { path: sessionScriptPath(path), routes: { "http://app.test": url } },
      })));
    assertEquals(run.errorMessages ?? {}, {});
    assertEquals(checksOf(run), [
      ["batch all 200", 2, 0],
      ["batch at once", 2, 0],
      ["each its own duration", 2, 0],
      ["second origin alone", 2, 0],
    ]);
    const steps = Object.fromEntries(run.flows![0].steps.map((s) => [s.label, s.requests]));
    assertEquals(steps, { "GET /sleep": 8, other: 2, [`GET ${origin}/echo`]: 2 });
  }));

Deno.test("http.batch's request with its own jar keeps its cookies there, the VU's jar untouched, as k6", () =>
  withOrigins(async (_url, origin) => {
    const script = `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2 };
export default function () {
  const jar = new http.CookieJar();
  http.batch([["GET", "${origin}/set?v=blue", null, { jar }], ["GET", "${origin}/echo"]]);
  const [own, vu] = http.batch([{ method: "GET", url: "${origin}/echo", params: { jar } }, "${origin}/echo"]);
  check(own, { "own jar sends it": (r) => r.body === "c=blue" });
  check(vu, { "VU jar has it not": (r) => r.body === "" });
}
`;
    const { code, text, results } = await runK6Text(script, origin);
    assertEquals(code, 0, text);
    assertEquals(checksOf(results.runs[0]), [["VU jar has it not", 2, 0], ["own jar sends it", 2, 0]]);
  }));
