/**
 * Converted k6 scripts whose callbacks send requests, handed to what is not a plain array: a Set's and a
 * Map's forEach await each request in turn, as k6 ran them (each request but the first was refused as
 * in flight, a script error, and the iteration ended before them), and a k6/html selection's map, which
 * cannot await them, is refused at the script's line naming the fix. Against the built-in target; loads
 * are a few iterations.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Fixture } from "./k6_run.ts";

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
