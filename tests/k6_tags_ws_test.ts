/**
 * k6 scripts end to end, by tag and over WebSocket: thresholds selecting requests by their own tags, the
 * options' and the scenario's tags and the scenario's name, judged by `loadlab run`; k6/ws against the
 * built-in target's echo (messages counted in k6's ws_* metrics and in the run's ws section); k6/timers
 * holding the iteration until its timers fired, and until what a callback run later sent was answered; a
 * request's own `responseCallback`.
 * Loads are bounded counts.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { k6Fixture, runK6Fixture as runIn, runK6Text } from "./k6_run.ts";

Deno.test("k6 thresholds by tag: a request's own, the options', the scenario's and its name", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runIn("tagged.js", url, [], { inProcess: true });
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
    // Twice in this process: the second run's metrics are its own, none of the first's added in.
    const summary = `${Deno.makeTempDirSync()}/data.json`;
    const script = Deno.readTextFileSync(k6Fixture("ws_echo.js")).replace("summary/data.json", summary);
    await runK6Text(script, url, [], { inProcess: true });
    const { code, text, results } = await runK6Text(script, url, [], { inProcess: true });
    assertEquals(code, 0, text);
    const m = JSON.parse(Deno.readTextFileSync(summary)).metrics;
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
    // k6/ws's close() sends 1001 (going away) unless given a code, as k6's.
    assertEquals([ws.closesSent, ws.closeCodes, run.requests], [4, { "1001": 4 }, 0]);
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
    const { code, text, results } = await runIn("timers.js", url, [], { inProcess: true });
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
      [],
      { inProcess: true },
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
      [],
      { inProcess: true },
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
      [],
      { inProcess: true },
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
    const { code, text, results } = await runIn("two_scenarios.js", url, [], { inProcess: true });
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
    const { code, text, dir, results } = await runIn(
      "websockets_chat.js",
      url,
      ["--summary-export", "export.json"],
    );
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
import ws from "k6/ws";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { ws_sessions: ["count==6"] } };
export default function () {
  const res = ws.connect("ws://127.0.0.1:1/legacy", () => {});
  check(res, { "k6/ws: a response, status 0": (r) => r.status === 0 && /ECONNREFUSED/.test(r.error) });
  const socket = new WebSocket("ws://127.0.0.1:1/refused");
  socket.onerror = (e) => check(e, { "an error event": (ev) => /ECONNREFUSED/.test(ev.error) });
  socket.onclose = () => check(socket, { "closed": (s) => s.readyState === 3 });
  new WebSocket("ws://127.0.0.1:1/again").onclose = () => { throw new Error("from onclose"); };
}`;
  const { code, text, dir } = await runK6Text(script, null, ["--summary-export", "export.json"]);
  assertEquals(code, 0, text);
  const m = JSON.parse(Deno.readTextFileSync(`${dir}/export.json`)).metrics;
  // As k6: a socket that never opened counts a session and its connecting time; k6/ws's its duration too.
  ok(m.ws_sessions.count === 6 && m.ws_connecting.max > 0, JSON.stringify(m));
  assertEquals([m.checks.passes, m.checks.fails, typeof m.ws_session_duration?.max], [6, 0, "number"]);
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

/**
 * Runs `fn` with a server at `127.0.0.1:PORT`: its WebSockets echo, and at `/cookie` first send the
 * handshake's Cookie field; plain requests get 200.
 */
async function withEcho(fn: (at: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    if (req.headers.get("upgrade") !== "websocket") return new Response("ok");
    const cookie = req.headers.get("cookie") ?? "none", { socket, response } = Deno.upgradeWebSocket(req);
    if (new URL(req.url).pathname === "/cookie") socket.onopen = () => socket.send(cookie);
    socket.onmessage = (e) => socket.send(e.data);
    return response;
  });
  try {
    await fn(`127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

async function exportOf(script: string): Promise<Record<string, any>> {
  const { code, text, dir } = await runK6Text(script, null, ["--summary-export", "export.json"]);
  assertEquals(code, 0, text);
  return JSON.parse(Deno.readTextFileSync(`${dir}/export.json`)).metrics;
}

Deno.test("k6/websockets: a listener that sleeps or sends a request holds the VU's later events", () =>
  withEcho(async (at) => {
    const m = await exportOf(`import { WebSocket } from "k6/websockets";
import ws from "k6/ws";
import http from "k6/http";
import { setTimeout } from "k6/timers";
import { check, sleep } from "k6";
export const options = { iterations: 2 };
function pause() { sleep(0.1); }
export default function () {
  const socket = new WebSocket("ws://${at}/echo"), seen = [];
  let firstEnd = 0, timerAt = 0;
  socket.onopen = () => ["a", "b", "c"].forEach((m) => socket.send(m));
  socket.addEventListener("message", (e) => {
    const t0 = Date.now();
    if (seen.length === 0) setTimeout(() => { timerAt = Date.now(); }, 1);
    pause();
    seen.push([e.data, Date.now() - t0]);
    firstEnd ||= Date.now();
    if (seen.length === 3) socket.close();
  });
  socket.onclose = () => check(seen, { "each message after the sleep before it": (s) =>
    s.map((x) => x[0]).join("") === "abc" && s.every((x) => x[1] >= 95) && timerAt >= firstEnd });
  ws.connect("ws://${at}/echo", (s) => {
    sleep(0.05);
    s.on("open", () => s.send("x"));
    s.on("message", () => { http.get("http://${at}/"); s.close(); });
  });
}
`);
    assertEquals([m.checks.passes, m.checks.fails, m.ws_msgs_received.count, m.http_reqs.count], [
      2,
      0,
      8,
      2,
    ]);
  }));

Deno.test("k6/websockets: a Blob sent and received, k6's Blob exported, ready states, bufferedAmount", () =>
  withEcho(async (at) => {
    const m = await exportOf(`import { WebSocket, Blob } from "k6/websockets";
import { check } from "k6";
export const options = { iterations: 2 };
export default function () {
  const socket = new WebSocket("ws://${at}/echo"), sizes = [];
  socket.onopen = () => {
    check(socket, { "ready states by name": (s) => s.readyState === s.OPEN && WebSocket.CLOSED === 3 });
    socket.send(new Blob(["ab", new Uint8Array([1, 2])], { type: "x/y" }));
    check(socket, { "its bytes buffered until the loop hears they were written": (s) => s.bufferedAmount === 4 });
  };
  socket.onmessage = (e) => {
    sizes.push(e.data instanceof Blob ? e.data.size : -1);
    if (sizes.length === 1) socket.send(e.data);
    else socket.close();
  };
  socket.onclose = () => check(sizes, { "a Blob of 4 bytes, twice": (s) => s.join() === "4,4" });
}
`);
    assertEquals([m.checks.passes, m.checks.fails, m.ws_msgs_sent.count], [6, 0, 6]);
  }));

Deno.test("k6/ws and k6/websockets: the VU's cookies for the URL go with a handshake given no jar", () =>
  withEcho(async (at) => {
    const m = await exportOf(`import { WebSocket } from "k6/websockets";
import ws from "k6/ws";
import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2 };
export default function () {
  http.cookieJar().set("http://${at}/", "vu", "v1");
  const socket = new WebSocket("ws://${at}/cookie");
  socket.onmessage = (e) => { check(e.data, { "the VU's cookie (websockets)": (d) => d === "vu=v1" }); socket.close(); };
  ws.connect("ws://${at}/cookie", (s) => s.on("message", (d) => {
    check(d, { "the VU's cookie (ws)": (v) => v === "vu=v1" });
    s.close();
  }));
}
`);
    assertEquals([m.checks.passes, m.checks.fails], [4, 0]);
  }));
