/**
 * Converted k6 scripts whose callbacks send requests, handed to what is not a plain array: a Set's and a
 * Map's forEach await each request in turn, as k6 ran them (each request but the first was refused as
 * in flight, a script error, and the iteration ended before them), and a k6/html selection's map, which
 * cannot await them, is refused at the script's line naming the fix. Against the built-in target; loads
 * are a few iterations.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Fixture, runK6Text } from "./k6_run.ts";

Deno.test("a Set's and a Map's forEach await their requests; a selection's map of them is refused at its line", () =>
  withTarget(async (url) => {
    const { text, results } = await runK6Fixture("collection_callbacks.js", url);
    const run = results.runs[0];
    // Two iterations of three requests each; the selection's iteration sends none.
    assertEquals(run.requests, 6, text);
    const scripts = Object.entries(run.errorMessages?.script ?? {});
    assertEquals(scripts.length, 1, JSON.stringify(scripts));
    const [message, count] = scripts[0];
    assertEquals(count, 1, message);
    ok(
      /^map\(\) with a callback that sends requests or sleeps, called on a Selection: .*Array\.from.*\(collection_callbacks\.js:28\)$/
        .test(message),
      message,
    );
    // k6's summary: every check judged a response, none a promise.
    ok(/checks_succeeded\.+: 100\.00% 6 out of 6/.test(text), text);
  }));

Deno.test("a check's conditions that send requests are judged when they answer, in order, the check's value theirs", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";
const all = new Counter("all_passed");
export const options = { iterations: 2, thresholds: { "checks{kind:sent}": ["rate==0.75"] } };
export default function () {
  const passed = check(null, {
    "plain": () => true,
    "sends": () => http.get("http://app.test/json").status === 200,
    "sends a 404": () => http.get("http://app.test/nothing-here").status === 200,
    "after": () => true,
  }, { kind: "sent" });
  all.add(passed ? 1 : 0);
}
`,
      url,
      ["-q", "--summary-export", "export.json"],
    );
    assertEquals(run.code, 0, run.text);
    const exported = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`));
    const checks: Record<string, { name: string; passes: number; fails: number }> =
      exported.root_group.checks;
    const counts = Object.values(checks).map((c) => [c.name, c.passes, c.fails]);
    assertEquals(counts, [["plain", 2, 0], ["sends", 2, 0], ["sends a 404", 0, 2], ["after", 2, 0]]);
    assertEquals(exported.metrics.all_passed.count, 0);
    assertEquals(exported.metrics.http_reqs.count, 4);
  }));

Deno.test("a check condition written async throws where it is reached, the conditions before it counted, as k6's", () =>
  withTarget(async (url) => {
    const run = await runK6Text(
      `import { check } from "k6";
export const options = { iterations: 1 };
export default function () {
  check(null, { "plain": () => true, "written async": async () => true, "after": () => true });
}
`,
      url,
      ["--summary-export", "export.json"],
    );
    const exported = JSON.parse(Deno.readTextFileSync(`${run.dir}/export.json`));
    assertEquals(Object.keys(exported.root_group.checks), ["plain"], run.text);
    ok(run.text.includes("the built-in check() does not support async functions as arguments"), run.text);
  }));
