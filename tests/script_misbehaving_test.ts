/**
 * Session scripts that misuse the session against the built-in target, through real worker isolates:
 * requests a session never awaits (one connection each session, never one per request: the second in
 * flight is a `script` error at its line), a session that waits on a promise nothing resolves (cut at
 * the end of the graceful stop and counted, not taken for a stuck worker), a session that ends its
 * worker's isolate with `Deno.exit` (named as such at once, its rate over the time it ran), a session
 * object kept past its session (its requests refused at their line, never sent on a connection another
 * session now owns), and sessions that throw values no describer expects or return thenables (each
 * counted, the worker whole) or check names whose toString throws (an error at the s.check line), and a
 * session that replaces a built-in the engine relies on (put back on the next tick, the run flagged). Loads
 * are sub-second durations or small counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { withScriptVars, withTarget } from "./helpers.ts";
import { runAttack } from "../runner/attack.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";

const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

const load = (
  url: string,
  path: string,
  protocol: "http1" | "h2c" = "http1",
  transport: "deno" | "epoll" | "auto" = "auto",
) =>
  parseAttackConfig({
    url,
    model: "connections",
    connections: 2,
    workers: 1,
    durationMs: 400,
    gracefulStopMs: 200,
    intervalMs: 100,
    protocol,
    transport,
    script: { path },
  });

/** `requests` sessions of script `name`, one at a time on one connection. */
const counted = (url: string, name: string, requests: number) =>
  parseAttackConfig({
    url,
    model: "count",
    requests,
    connections: 1,
    workers: 1,
    gracefulStopMs: 200,
    intervalMs: 100,
    script: { path: script(name) },
  });

for (const protocol of ["http1", "h2c"] as const) {
  for (const transport of ["deno", "epoll"] as const) {
    Deno.test(`requests a session does not await (${protocol}, ${transport}): no connection each, a script error at the line`, () =>
      withTarget(async (url) => {
        const run = await runAttack(load(url, script("unawaited.ts"), protocol, transport));
        ok(run.connects <= 4, `${run.connects} connections for 2 sessions at a time`);
        const messages = Object.keys(run.errorMessages?.script ?? {});
        ok(
          messages.some((m) => m.includes("still in flight") && m.endsWith("(unawaited.ts:6)")),
          JSON.stringify(messages),
        );
        ok(run.requests > 0, "the first request of each session is sent");
      }));
  }
}

for (const protocol of ["http1", "h2c"] as const) {
  Deno.test(`a session object kept past its session (${protocol}): its request is refused at the line, never sent`, () =>
    withTarget(async (url) => {
      // One connection: each session is the next on the connection the kept one had (and has ended on).
      const run = await runAttack(parseAttackConfig({
        url,
        model: "connections",
        connections: 1,
        workers: 1,
        durationMs: 400,
        gracefulStopMs: 200,
        intervalMs: 100,
        protocol,
        script: { path: script("kept_session.ts") },
      }));
      const messages = Object.keys(run.errorMessages?.script ?? {});
      ok(
        messages.some((m) => m.includes("after its session ended") && m.endsWith("(kept_session.ts:12)")),
        JSON.stringify(messages),
      );
      // The timer's request, dropped by the script: an unhandled rejection, at the timer's line.
      ok(
        messages.some((m) =>
          m.startsWith("unhandled rejection: s.get() after its session ended") &&
          m.endsWith("(kept_session.ts:14)")
        ),
        JSON.stringify(messages),
      );
      // Nothing went out under the ended session's name, on a connection another session now owns.
      const steps = run.flows![0].steps.map((step) => step.label);
      ok(
        steps.includes("json") && !steps.includes("kept") && !steps.includes("timer"),
        JSON.stringify(steps),
      );
      ok(run.flows![0].failed > 0, "the session that used another's object failed");
    }));
}

Deno.test("a session waiting on a promise nothing resolves is cut at the end of the graceful stop", () =>
  withTarget(async (url) => {
    const run = await runAttack(load(url, script("pending.ts")));
    // Not taken for a worker stuck in a busy loop: the worker ended by itself, on time.
    assertEquals([run.stuckWorkers, run.incomplete], [undefined, undefined]);
    ok(run.durationSec >= 0.3, `durationSec ${run.durationSec}`);
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [2, 0, 2]);
    const messages = run.errorMessages?.script ?? {};
    assertEquals(Object.values(messages), [2], JSON.stringify(messages));
    ok(Object.keys(messages)[0].includes("still waiting at the end of the graceful stop"));
    // Counted in the verdict as every error kind is.
    ok(runVerdict(run).flags.some((f) => f.kind === "errors"), runVerdict(run).label);
  }));

for (const how of ["session", "close"]) {
  Deno.test(`a session that ends its worker's isolate (${how === "close" ? "self.close()" : "Deno.exit"}) is named at once, the rate over the time it ran`, () =>
    withTarget(async (url) => {
      const run = await withScriptVars({ SCRIPT_EXIT_IN: how }, () =>
        runAttack(parseAttackConfig({
          url,
          model: "connections",
          connections: 1,
          workers: 1,
          durationMs: 60_000,
          gracefulStopMs: 200,
          intervalMs: 100,
          script: { path: script("exiting.ts") },
        })));
      // Named as soon as it exited (not waited out 60 s and the stuck margin), and not taken for stuck.
      assertEquals([run.exitedWorkers, run.stuckWorkers, run.incomplete], [1, undefined, true]);
      const flag = runVerdict(run).flags.find((f) => f.kind === "incomplete");
      assertEquals(flag?.label, "incomplete: 1 worker exited (Deno.exit) in exiting.ts");
      // Its rate is over the 200 ms it ran (not over 1 ms, not over the 60 s it did not run).
      ok(run.durationSec >= 0.2 && run.durationSec < 30, `durationSec ${run.durationSec}`);
      assertEquals(run.requests, 1);
      // What it counted before it ended reaches the run: its session's request by name.
      assertEquals(run.flows?.[0].steps.map((step) => [step.label, step.requests]), [["json", 1]]);
    }));
}

Deno.test("a stop during the load cuts sessions waiting on their own promise at once, not past the graceful stop", () =>
  withTarget(async (url) => {
    const stop = new AbortController();
    let startedMs = Infinity;
    const run = await runAttack(
      parseAttackConfig({
        url,
        model: "connections",
        connections: 2,
        workers: 1,
        durationMs: 60_000,
        gracefulStopMs: 30_000,
        intervalMs: 100,
        script: { path: script("pending.ts") },
      }),
      {
        signal: stop.signal,
        onStart: () => {
          startedMs = performance.now();
          setTimeout(() => stop.abort(), 300);
        },
      },
    );
    // A stop asked the sessions to end: none waits out the 30 s graceful stop (nor the stuck margin).
    ok(performance.now() - startedMs < 20_000, `${performance.now() - startedMs} ms`);
    assertEquals([run.stuckWorkers, run.requests], [undefined, 2]);
  }));

Deno.test("a module that exits as a load worker imports it: refused before the load, as bad input", () =>
  withTarget(async (url) => {
    const failed = await withScriptVars(
      { SCRIPT_EXIT_IN: "load-worker" },
      () => runAttack(load(url, script("exiting.ts"))),
    ).then(() => null, (err) => err);
    assertEquals(failed?.name, "ScriptSetupError");
    ok(String(failed.message).includes("a load worker's isolate exited before the load"), failed.message);
  }));

Deno.test("sessions that throw or reject values no describer expects (null, a throwing toString, a Proxy) fail and are counted; thenables are awaited", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "hostile_throws.ts", 18));
    const flow = run.flows![0];
    // Every session counted: the 14 that threw failed, the thenable that sent and the one whose then
    // threw as theirs are (7 sends and 1 throw of 9 each round).
    assertEquals([flow.sessions, flow.completed, flow.failed], [18, 2, 16]);
    assertEquals(flow.steps.map((step) => [step.label, step.requests]), [["json", 14], ["thenable", 2]]);
    const messages = run.errorMessages?.script ?? {};
    const shown = Object.keys(messages);
    ok(shown.every((m) => !m.includes("\n") && m.length < 200), JSON.stringify(shown));
    // Each throw once as a session's error and once as an unhandled rejection, none lost.
    assertEquals(Object.values(messages).reduce((a, b) => a + b, 0), 14 + 2 + 14, JSON.stringify(messages));
    ok(shown.includes("null") && shown.includes("42") && shown.includes("5"), JSON.stringify(shown));
    ok(
      shown.some((m) => m.startsWith("a thrown object that cannot be shown as text")),
      JSON.stringify(shown),
    );
  }));

Deno.test("a check name whose toString throws fails its session at the s.check line, not as the bare thrown value", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "hostile_check_names.ts", 3));
    assertEquals(run.errors.script, 3);
    assertEquals(Object.keys(run.errorMessages?.script ?? {}), [
      "s.check's name cannot be shown as text (its toString throws): " +
      'name the check with a string, e.g. "status 200" (hostile_check_names.ts:13)',
    ]);
  }));

Deno.test("think times no timer can keep (NaN, Infinity, negative, text) fail their session at the line, never hold it", () =>
  withTarget(async (url) => {
    const startedMs = performance.now();
    const run = await runAttack(counted(url, "bad_sleeps.ts", 10));
    // A NaN sleep was due at NaN and never woke: the count held until its 10 minute max duration.
    ok(performance.now() - startedMs < 20_000, `${performance.now() - startedMs} ms`);
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed, run.requests], [10, 2, 8, 10]);
    const messages = Object.keys(run.errorMessages?.script ?? {});
    ok(
      messages.includes(
        "s.sleep(NaN): a think time is a finite number of milliseconds, 0 or more (bad_sleeps.ts:10)",
      ),
      JSON.stringify(messages),
    );
    assertEquals(messages.length, 4, JSON.stringify(messages));
  }));

Deno.test("request options of the wrong type (a Symbol name, a NaN timeout, a Blob body) fail their session at the line, nothing sent", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "bad_options.ts", 10));
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed, run.requests], [10, 1, 9, 1]);
    const messages = Object.keys(run.errorMessages?.script ?? {});
    // One message per value, each at the script's line, saying what the option must be (a Symbol header
    // value failed deep in the encoder, its stack too deep to reach the script's line).
    assertEquals(messages.length, 9, JSON.stringify(messages));
    for (const m of messages) {
      ok(
        /^(name|the request's timeout \(timeoutMs\)|body|header "x-a": its value) must be .*\(found [^)]+\) \(bad_options\.ts:\d+\)$/
          .test(m),
        m,
      );
    }
  }));

Deno.test("s.cookies.set of a name or value with a line break fails the session at the line, nothing sent", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "bad_cookies.ts", 3));
    const flow = run.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed, run.requests], [3, 1, 2, 1]);
    const messages = Object.keys(run.errorMessages?.script ?? {});
    assertEquals(messages.length, 2, JSON.stringify(messages));
    for (const m of messages) ok(/^s\.cookies\.set\(.*\(bad_cookies\.ts:[78]\)$/.test(m), m);
  }));

Deno.test("a session that posts to its worker's parent (postMessage, parentPort) is refused at its line, the run whole", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "posting.ts", 4));
    assertEquals(run.requests, 4);
    const messages = Object.keys(run.errorMessages?.script ?? {}).sort();
    assertEquals(messages.map((m) => m.slice(m.lastIndexOf("("))).sort(), [
      "(posting.ts:10)",
      "(posting.ts:11)",
      "(posting.ts:12)",
    ]);
    ok(
      messages.every((m) => m.includes("is loadlab's own channel from this isolate to its main one")),
      messages[0],
    );
    assertEquals([run.flows![0].completed, run.flows![0].failed], [1, 3]);
  }));

Deno.test("a path or header name with a line break, or a path that is not text, is refused with its reason on the one line", () =>
  withTarget(async (url) => {
    const run = await runAttack(counted(url, "bad_paths.ts", 3));
    assertEquals(run.requests, 0);
    // The line was cut at the path's own line break: "/a  (bad_paths.ts:5)", its reason lost; a URL object
    // read "target.charCodeAt is not a function", the engine's words.
    assertEquals(Object.keys(run.errorMessages?.script ?? {}).sort(), [
      '"/a\\r\\nX-Injected: 1": a path cannot contain spaces, tabs, line breaks or NUL; percent-encode them, e.g. %20 (bad_paths.ts:6)',
      'header "x-a\\r\\nX-Injected": header name "x-a\\r\\nX-Injected" is not a token: use letters, digits and !#$%&\'*+-.^_`|~ only, e.g. "x-api-key" (bad_paths.ts:7)',
      's.get() takes its path as text, a path or a URL of the target (found a URL object); e.g. s.get("/items") or s.get(url.href) (bad_paths.ts:8)',
    ]);
  }));

for (
  const [fixture, changed] of [
    ["patching_builtins.ts", "Array.prototype.push"],
    ["patching_dataview.ts", "DataView.prototype.getUint32"],
  ]
) {
  Deno.test(`a session that replaces ${changed}, which the engine relies on: put back, the run whole, the change named`, () =>
    withTarget(async (url) => {
      // A count, not a duration: a busy machine's slow start leaves a 400 ms run a few requests.
      const run = await runAttack(parseAttackConfig({
        url,
        model: "count",
        requests: 20,
        connections: 2,
        workers: 1,
        gracefulStopMs: 200,
        intervalMs: 100,
        protocol: "http1",
        transport: "epoll",
        script: { path: script(fixture) },
      }));
      ok(run.requests > 10 && run.intervals.some((iv) => iv.requests > 0), `${run.requests} requests`);
      const labels = runVerdict(run).flags.map((f) => f.label);
      // Named alone, or inside the errors flag when the one script error passes the errors share.
      ok(
        labels.some((l) => l.includes(`script changed ${changed} while it ran (put back)`)),
        labels.join("; "),
      );
      assertEquals(run.errors, { script: 1 });
    }));
}
