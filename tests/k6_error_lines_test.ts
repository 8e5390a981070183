/**
 * A k6 script's call that fails deep in loadlab's engine keeps the script's `file:line` in the run's
 * errors, through `loadlab run` of a real k6 script against the built-in target: a header name that is
 * no token, sent by `http.batch`, is refused 17 frames below the script's call, past the 10 frames V8
 * keeps by default, and was counted without its line. One iteration each, the process bounded in time.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

/** `loadlab run script.js` of `text` against `url`: output, the run's script errors. */
async function runScript(text: string, url: string) {
  const { text: output, results } = await runK6Text(text, url);
  return { text: output, messages: Object.keys(results.runs[0].errorMessages?.script ?? {}) };
}

Deno.test("a k6 call refused deep in the engine (http.batch's bad header) fails at the script's line", () =>
  withTarget(async (url) => {
    const { text, messages } = await runScript(
      `import http from "k6/http";
export const options = { iterations: 2 };
function page(headers) {
  return http.batch([["GET", "http://app.test/", null, { headers }]]);
}
export default function () {
  page({ "bad name": "v" });
}
`,
      url,
    );
    assertEquals(messages.length, 1, text);
    ok(messages[0].startsWith('header bad name: header name "bad name" is not a token'), messages[0]);
    ok(messages[0].endsWith("(script.js:4)"), messages[0]);
  }));
