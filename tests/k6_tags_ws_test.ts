/**
 * k6 scripts end to end, by tag and over WebSocket: thresholds selecting requests by their own tags, the
 * options' and the scenario's tags and the scenario's name, judged by `loadlab run`; k6/ws against the
 * built-in target's echo (messages counted in k6's ws_* metrics and in the run's ws section); k6/timers
 * holding the iteration until its timers fired, and until what a callback run later sent was answered; a
 * request's own `responseCallback`.
 * Loads are bounded counts.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Fixture as runIn, runK6Text } from "./k6_run.ts";

Deno.test("k6 thresholds by tag: a request's own, the options', the scenario's and its name", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runIn("tagged.js", url);
    // `http_reqs{kind:css}: count>100` cannot hold on 6 requests: exit 99, every other one passes.
    assertEquals(code, 99, text);
    const outcomes = results.thresholds.map((t: { expression: string; ok: boolean }) => [t.expression, t.ok]);
    assertEquals(
      outcomes.filter(([, passed]: [string, boolean]) => !passed).length,
      1,
      JSON.stringify(outcomes),
    );
    ok(outcomes.find(([e]: [string]) => e.includes("kind:css"))?.[1] === false, JSON.stringify(outcomes));
    const endpoints = results.runs[0].endpoints.map((e: { name: string; tags: object; requests: number }) => [
      e.name,
      e.tags,
      e.requests,
    ]);
    const common = { suite: "tags", team: "web", scenario: "pages" };
    assertEquals(endpoints, [
      ["GET /json", { ...common, kind: "html" }, 6],
      ["GET /", { ...common, staticAsset: "yes", kind: "css" }, 6],
    ]);
  }));

Deno.test("k6/ws: messages echoed by the built-in target, handlers, timers and ping, in k6's ws metrics", () =>
  withTarget(async (url) => {
    const { code, text, dir, results } = await runIn("ws_echo.js", url);
    assertEquals(code, 0, text);
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/summary/data.json`)).metrics;
    assertEquals([m.ws_sessions.values.count, m.ws_msgs_sent.values.count, m.ws_msgs_received.values.count], [
      4,
      12,
      12,
    ]);
    // The run's own numbers count them as a WebSocket flow's: its ws section, not its HTTP requests (k6's
    // too).
    const run = results.runs[0];
    const ws = run.ws;
    assertEquals([ws.handshakes, ws.messagesSent, ws.messagesReceived, ws.pingsSent, ws.pongsReceived], [
      4,
      12,
      12,
      4,
      4,
    ]);
    assertEquals([ws.closesSent, ws.closeCodes, run.requests], [4, { "1000": 4 }, 0]);
    ok(ws.payloadBytesSent > 0 && ws.payloadBytesSent === ws.payloadBytesReceived, JSON.stringify(ws));
    ok(ws.handshakeMs.max > 0, JSON.stringify(ws.handshakeMs));
    assertEquals(m.echoed.values.count, 12);
    assertEquals(m.ws_msgs_received.thresholds, { "count==12": { ok: true } });
    // The tags of ws.connect's params are on every sample of its session, as k6's.
    assertEquals(m["ws_msgs_sent{room:blue}"].thresholds, { "count==12": { ok: true } });
    assertEquals(m["ws_sessions{room:blue}"].thresholds, { "count==4": { ok: true } });
    ok(m.ws_connecting.values.max > 0 && m.ws_ping.values.max > 0, JSON.stringify(m.ws_ping));
    assertEquals([m.checks.values.passes, m.checks.values.fails], [4, 0]);
    // Its sessions are what it measured: no "nothing measured" beside them, no success rate of no request.
    ok(/\d[\d.]* sessions\/s, no HTTP request[^\n]*success - /.test(text), text);
    ok(!text.includes("nothing measured"), text);
  }));

Deno.test("k6/timers: an iteration ends after its timers fired, their checks counted", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runIn("timers.js", url);
    assertEquals(code, 0, text);
    const steps = results.runs[0].flows[0].steps;
    assertEquals(steps.map((s: { label: string; requests: number }) => [s.label, s.requests]), [["json", 2]]);
    assertEquals(steps[0].checks.map((c: { name: string; passed: number }) => [c.name, c.passed]), [[
      "three ticks first",
      2,
    ]]);
  }));

Deno.test("k6's event loop: what timers, promise reactions, executors and an async IIFE send ends the iteration", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { vus: 2, iterations: 4, thresholds: { http_reqs: ["count==24"], checks: ["rate==1"] } };
const ok = (name) => (r) => check(r, { [name]: (x) => x.status === 200 });
export default function () {
  http.asyncRequest("GET", "http://app.test/json?step=1")
    .then((r) => { ok("first")(r); return http.asyncRequest("GET", "http://app.test/json?step=2"); })
    .then(ok("second"))
    .finally(() => http.get("http://app.test/json?step=3"));
  setTimeout(() => ok("timer")(http.get("http://app.test/json?t=1")), 40);
  new Promise((resolve) => resolve(http.get("http://app.test/json?p=1"))).then(ok("executor"));
  (async () => ok("iife")(await http.asyncRequest("GET", "http://app.test/json?i=1")))();
}`,
      url,
    );
    assertEquals(code, 0, text);
    const run = results.runs[0], flow = run.flows[0];
    assertEquals([run.requests, flow.completed], [24, 4], text);
    const checks = flow.steps.flatMap((s: { checks?: { name: string; passed: number }[] }) => s.checks ?? []);
    assertEquals(checks.map((c: { name: string; passed: number }) => [c.name, c.passed]).sort(), [
      ["executor", 4],
      ["first", 4],
      ["iife", 4],
      ["second", 4],
      ["timer", 4],
    ]);
    // Each iteration lasted until its timer's request was answered.
    ok(flow.sessionMs.min >= 40, JSON.stringify(flow.sessionMs));
  }));

Deno.test("a timer's callback waits while the VU is blocked in a k6 call, as k6 runs one callback at a time", () =>
  withTarget(async (url) => {
    // Each tick's request outlasts the interval: a tick that ran beside it would count past 2 and never stop.
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
export const options = { iterations: 2, thresholds: { http_reqs: ["count==4"] } };
export default async function () {
  let ticks = 0;
  await new Promise((resolve) => {
    const id = setInterval(() => {
      ticks++;
      http.get("http://app.test/sleep?ms=60");
      if (ticks === 2) clearInterval(id), resolve();
    }, 10);
  });
}`,
      url,
    );
    assertEquals([code, results.runs[0].requests], [0, 4], text);
  }));

Deno.test("a request's own responseCallback: its answers failed by its statuses, the others' by the run's", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
export const options = {
  iterations: 3,
  thresholds: {
    http_req_failed: ["rate>0.3", "rate<0.4"],
    "http_req_failed{name:gone}": ["rate==0"],
    "http_req_failed{name:broken}": ["rate==1"],
    "http_reqs{expected_response:true}": ["count==6"],
  },
};
export default function () {
  http.get("http://app.test/validate?id=x", { tags: { name: "gone" }, responseCallback: http.expectedStatuses(400) });
  http.get("http://app.test/json");
  http.get("http://app.test/validate?id=y", { tags: { name: "broken" } });
}`,
      url,
    );
    assertEquals(code, 0, text);
    const run = results.runs[0];
    assertEquals(run.successRate, 2 / 3);
    const own = run.endpoints.map((
      e: { name: string; expectedStatuses?: unknown },
    ) => [e.name, e.expectedStatuses]);
    assertEquals(own, [["gone", [[400, 400]]], ["GET /json", undefined], ["broken", undefined]]);
  }));

Deno.test("two k6 scenarios run at once as one run, the second from its startTime, each its own function", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runIn("two_scenarios.js", url);
    assertEquals(code, 0, text);
    assertEquals(results.runs.length, 1);
    const run = results.runs[0];
    assertEquals(run.name, "app/browse+api");
    const byScenario = Object.fromEntries(
      run.endpoints.map((e: { name: string; tags: Record<string, string> }) => [e.tags.scenario, e]),
    );
    assertEquals([byScenario.api.name, byScenario.api.requests], ["GET /json", 5]);
    assertEquals(byScenario.browse.name, "home");
    ok(byScenario.browse.requests >= 4, JSON.stringify(byScenario.browse.requests));
    // The api scenario's first request came a second (4 intervals of 250 ms) after the run's start, or later.
    const firstApi = byScenario.api.intervals.requests.findIndex((n: number) => n > 0);
    ok(firstApi >= 3, `api's first request in interval ${firstApi}`);
    const checks = run.flows[0].steps.flatMap((s: { checks?: unknown[] }) => s.checks ?? []);
    assertEquals(
      checks.map((c: { name: string; failed: number }) => [c.name, c.failed]).sort(),
      [["api scenario", 0], ["browse 200", 0]],
    );
    assertEquals(results.thresholds.map((t: { ok: boolean }) => t.ok), [true, true]);
    // k6's summary pools the scenarios: 2 + 1 virtual users, iteration durations of both functions.
    assertEquals(run.config.connections, 3);
    ok(
      run.flows[0].sessionMs.max > 0 && run.flows[0].sessionMs.mean > 0,
      JSON.stringify(run.flows[0].sessionMs),
    );
    ok(/vus_max\b[ .:]*3\b/.test(text), text);
    ok(!/iteration_duration[ .:]*avg=0\.00µs/.test(text), text);
  }));

Deno.test("k6/websockets: the browser's WebSocket on k6/ws's client, the iteration ending once it closed", () =>
  withTarget(async (url) => {
    const { code, text, dir, results } = await runIn("websockets_chat.js", url, [
      "--summary-export",
      "export.json",
    ]);
    assertEquals(code, 0, text);
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/export.json`)).metrics;
    // Each iteration: 4 messages, a ping and a close sent (k6 counts each frame it writes), 4 echoed.
    assertEquals([m.ws_msgs_sent.count, m.ws_msgs_received.count, m.ws_sessions.count], [
      24,
      16,
      4,
    ]);
    assertEquals([m.checks.passes, m.checks.fails], [4, 0]);
    const ws = results.runs[0].ws;
    assertEquals([ws.handshakes, ws.messagesSent, ws.pingsSent, ws.pongsReceived, ws.closeCodes], [
      4,
      16,
      4,
      4,
      { "1000": 4 },
    ]);
  }));

Deno.test("k6/websockets: a refused port is an error event and a close, a throw in a listener the iteration's", async () => {
  const script = `import { WebSocket } from "k6/websockets";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { ws_sessions: ["count==4"] } };
export default function () {
  const socket = new WebSocket("ws://127.0.0.1:1/refused");
  socket.onerror = (e) => check(e, { "an error event": (ev) => /ECONNREFUSED/.test(ev.error) });
  socket.onclose = () => check(socket, { "closed": (s) => s.readyState === 3 });
  new WebSocket("ws://127.0.0.1:1/again").onclose = () => { throw new Error("from onclose"); };
}`;
  const { code, text, dir } = await runK6Text(script, null, ["--summary-export", "export.json"]);
  assertEquals(code, 0, text);
  const m = JSON.parse(Deno.readTextFileSync(`${dir}/export.json`)).metrics;
  // As k6: a socket that never opened counts a session and its connecting time.
  ok(m.ws_sessions.count === 4 && m.ws_connecting.max > 0, JSON.stringify(m));
  assertEquals([m.checks.passes, m.checks.fails], [4, 0]);
  ok(/from onclose/.test(text), text);
});

Deno.test("k6/websockets: the jar param's cookies for the URL go with the handshake, as k6's", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const cookie = req.headers.get("cookie") ?? "none", { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => socket.send(cookie);
    return response;
  });
  try {
    const at = `127.0.0.1:${server.addr.port}`;
    const { code, text, dir } = await runK6Text(
      `import http from "k6/http";
import { WebSocket } from "k6/websockets";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export default function () {
  const jar = new http.CookieJar();
  jar.set("http://${at}/", "session", "s1");
  const ws = new WebSocket("ws://${at}/chat", null, { jar });
  ws.onmessage = (e) => { check(e.data, { "jar's cookie sent": (d) => d === "session=s1" }); ws.close(); };
}
`,
      null,
      ["--summary-export", "export.json"],
    );
    assertEquals(code, 0, text);
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/export.json`)).metrics;
    assertEquals([m.checks.passes, m.checks.fails], [2, 0], text);
  } finally {
    await server.shutdown();
  }
});
