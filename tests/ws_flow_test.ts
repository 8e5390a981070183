/**
 * End to end: flows with ws steps against the built-in target `loadlab run` starts. A session logs in
 * over HTTP, opens a WebSocket with the captured token in the query and a header, sends templated
 * messages fed by a data file, waits for the matching answer, captures from it and checks it, and
 * closes; on both transports, with exact counts in the run's `ws` section, its flows and its endpoints.
 * A `/ws/room` session waits for the room's broadcast of its own message; a wait that nothing answers
 * ends its session as failed, counted as a timeout; a capture that finds nothing ends it as a capture
 * miss; a wait the run's end cuts is unfinished, its run failed with the messages that did come named.
 * Every load is a count of sessions on loopback; nothing here asserts speed.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once: their `loadlab` calls run one at a time, in this process. */
const pool = testPool(3);

const USERS = "user,password\nada,secret\nbob,secret\ncy,secret\n";

/** One run of results.json as far as these tests read it. */
interface RunOut {
  load: string;
  transport: string;
  errors: Record<string, number>;
  ws: Record<string, unknown> & { closeCodes: Record<string, number> };
  flows: Array<{
    sessions: number;
    completed: number;
    failed: number;
    captureFailed?: number;
    steps: Array<
      {
        label: string;
        requests: number;
        errors: number;
        checks?: Array<{ name: string; passed: number; failed: number }>;
      }
    >;
  }>;
  endpoints: Array<{ name: string; method: string; requests: number; errors: Record<string, number> }>;
}

/** Runs `yaml` (users.csv beside it); its results' runs. */
async function runExperiment(dir: string, yaml: string): Promise<RunOut[]> {
  await Deno.writeTextFile(`${dir}/users.csv`, USERS);
  await Deno.writeTextFile(`${dir}/exp.yaml`, yaml);
  const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
  assert(r.code === 0, r.stderr + r.stdout);
  return JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;
}

const CHAT = `name: wsflow
targets:
  app: { kind: builtin }
data:
  users: { file: users.csv }
flows:
  - name: chat
    data: users
    steps:
      - post:
          path: /login
          json: { user: "{{ user }}", password: "{{ password }}" }
        capture: [{ json: $.token, as: token }]
      - ws:
          connect: /ws/echo?t={{ token }}
          headers: { authorization: "Bearer {{ token }}" }
      - ws:
          send: { type: hello, user: "{{ user }}" }
          match: { json: $.type, equals: hello }
          name: hello
        capture: [{ json: $.user, as: echoed }]
        expect:
          - { json: $.user, equals: "{{ user }}" }
          - { contains: never-in-a-message }
      - ws: { send: "again {{ echoed }}" }
      - ws: { wait: { regexp: "^again [a-z]+$" }, name: again, timeout: 5s }
        expect: [{ contains: "{{ user }}" }]
      - ws: { close: 1000 }
loads:
  epoll: { model: count, requests: 6, connections: 2, transport: epoll }
  deno: { model: count, requests: 6, connections: 2, transport: deno }
`;

pool.test("a flow logs in, opens a WebSocket with the token, sends, waits, captures, checks and closes: both transports", async () => {
  await withTempDir(async (dir) => {
    const runs = await runExperiment(dir, CHAT);
    assertEquals(runs.map((r) => r.transport), ["epoll", "deno"]);
    for (const run of runs) {
      assertEquals(run.errors, {}, run.load);
      const [flow] = run.flows;
      assertEquals([flow.sessions, flow.completed, flow.failed], [6, 6, 0]);
      assertEquals(flow.steps.map((s) => [s.label, s.requests, s.errors]), [
        ["POST /login", 6, 0],
        ["WS CONNECT /ws/echo?t={{ token }}", 6, 0],
        ["hello", 6, 0],
        ["again", 6, 0],
      ]);
      assertEquals(flow.steps[2].checks, [
        { name: '$.user == "{{ user }}"', passed: 6, failed: 0 },
        { name: 'contains "never-in-a-message"', passed: 0, failed: 6 },
      ]);
      assertEquals(flow.steps[3].checks, [{ name: 'contains "{{ user }}"', passed: 6, failed: 0 }]);
      const ws = run.ws;
      assertEquals(
        [ws.handshakes, ws.messagesSent, ws.messagesReceived, ws.unsolicited, ws.closesSent, ws.closeCodes],
        [6, 12, 12, 0, 6, { "1000": 6 }],
      );
      const endpoints = Object.fromEntries(run.endpoints.map((e) => [e.name, [e.method, e.requests]]));
      assertEquals(endpoints, { "POST /login": ["POST", 6], hello: ["WS", 6], again: ["WS", 6] });
    }
  });
});

const FAILURES = `name: wsfail
targets:
  app: { kind: builtin }
data:
  users: { file: users.csv }
loads:
  room:
    model: count
    requests: 3
    connections: 1
    flows:
      - name: room
        data: users
        steps:
          - ws: { connect: "/ws/room?room=r-{{ user }}" }
          - ws:
              send: "hi from {{ user }}"
              match: { json: $.self, equals: true }
            capture: [{ json: $.from, as: member }]
            expect:
              - { json: $.data, equals: "hi from {{ user }}" }
              - { json: $.room, equals: "r-{{ user }}" }
          - ws: { close: true }
  silent:
    model: count
    requests: 2
    connections: 1
    flows:
      - name: silent
        steps:
          - ws: { connect: /ws/echo }
          - ws: { send: ping, match: {}, name: ping }
          - ws: { wait: { contains: nobody-sends-this }, timeout: 300ms, name: never }
  miss:
    model: count
    requests: 2
    connections: 1
    flows:
      - name: miss
        steps:
          - ws: { connect: /ws/echo }
          - ws: { send: '{"a":1}' }
            capture: [{ json: $.b, as: b }]
`;

pool.test("a room's broadcast is awaited; a wait nobody answers times out; a capture that finds nothing ends the session", async () => {
  await withTempDir(async (dir) => {
    const [room, silent, miss] = await runExperiment(dir, FAILURES);
    assertEquals(room.errors, {});
    assertEquals([room.flows[0].completed, room.flows[0].failed], [3, 0]);
    assertEquals(room.flows[0].steps[1].checks?.map((c) => [c.passed, c.failed]), [[3, 0], [3, 0]]);
    assertEquals([room.ws.messagesSent, room.ws.messagesReceived, room.ws.closeCodes], [3, 3, { "1000": 3 }]);

    assertEquals([silent.flows[0].completed, silent.flows[0].failed], [0, 2]);
    assertEquals(silent.errors, { timeout: 2 });
    assertEquals(silent.flows[0].steps.map((s) => [s.label, s.requests, s.errors]), [
      ["WS CONNECT /ws/echo", 2, 0],
      ["ping", 2, 0],
      ["never", 0, 2],
    ]);
    assertEquals(silent.endpoints.find((e) => e.name === "never")?.errors, { timeout: 2 });

    assertEquals([miss.flows[0].completed, miss.flows[0].failed, miss.flows[0].captureFailed], [0, 2, 2]);
    assertEquals(miss.errors, {});
  });
});

pool.test("bad ws steps are refused before any load, each with its path (exit 2)", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/bad.yaml`,
      `name: bad
targets:
  app: { kind: builtin }
flows:
  - name: chat
    steps:
      - ws: { send: hi }
      - ws: { connect: /ws/echo, bogus: 1 }
      - ws: { wait: {}, headers: { a: b } }
        expect: [{ status: 200 }]
loads:
  once: { model: count, requests: 1 }
`,
    );
    const r = await loadlabInProcess(["run", `${dir}/bad.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 2, r.stdout + r.stderr);
    const text = r.stdout + r.stderr;
    for (
      const line of [
        "flows[0].steps[0].ws.send: send needs an open WebSocket: add a step - ws: { connect: /path } before it",
        "flows[0].steps[1].ws.bogus: unknown key",
        "flows[0].steps[2].ws.headers: headers goes with connect, not wait",
        "flows[0].steps[2].expect[0].status: a message has no status",
      ]
    ) assert(text.includes(line), `${line}\n---\n${text}`);
    // A well-formed flow in a place that cannot open a WebSocket, and a value no step provides.
    await Deno.writeTextFile(
      `${dir}/h2.yaml`,
      `name: h2
targets:
  app: { kind: builtin }
flows:
  - name: chat
    steps:
      - ws: { connect: /ws/echo }
      - ws: { send: hi }
loads:
  h2: { model: count, requests: 1, protocol: h2c }
`,
    );
    const h2 = await loadlabInProcess(["run", `${dir}/h2.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(h2.code, 2, h2.stdout + h2.stderr);
    assert(
      (h2.stdout + h2.stderr).includes(
        "flows[0].steps[0].ws: ws steps open their WebSocket with an HTTP/1.1 Upgrade: use protocol http1, not h2c",
      ),
      h2.stdout + h2.stderr,
    );
    await Deno.writeTextFile(
      `${dir}/h2.yaml`,
      (await Deno.readTextFile(`${dir}/h2.yaml`)).replace("send: hi", 'send: "{{ nobody }}"'),
    );
    const unknown = await loadlabInProcess(["run", `${dir}/h2.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(unknown.code, 2, unknown.stdout + unknown.stderr);
    assert(
      (unknown.stdout + unknown.stderr).includes("flows[0].steps[1].ws: {{ nobody }} is unknown"),
      unknown.stderr,
    );
  });
});

pool.test("an Artillery engine: ws script that captures and matches runs as a flow against the target", async () => {
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/script.yml`,
        `config:
  target: ${target.url.replace("http://", "ws://")}/ws/room?room=artillery
  phases: [{ duration: 1, arrivalRate: 3 }]
scenarios:
  - engine: ws
    flow:
      - send:
          payload: { op: join }
          capture: { json: $.from, as: me }
          match: { json: $.self, value: true }
      - send: "ping {{ me }}"
      - wait:
          match: { regexp: "ping [0-9]+" }
`,
      );
      const r = await loadlabInProcess(["run", `${dir}/script.yml`, "--out-dir", `${dir}/out`]);
      assertEquals(r.code, 0, r.stdout + r.stderr);
      const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs as RunOut[];
      const [flow] = run.flows;
      // Late arrivals of a busy machine may be dropped; every session that ran completed.
      assert(flow.sessions > 0 && flow.completed === flow.sessions, JSON.stringify(flow));
      assertEquals(run.errors, {});
      assertEquals([run.ws.handshakes, run.ws.messagesSent], [flow.sessions, 2 * flow.sessions]);
    });
  } finally {
    target.child.kill("SIGINT");
    await target.done;
  }
});

pool.test("docs/websocket-flow.yaml runs as is: every session completes, each message answered or unsolicited", async () => {
  await withTempDir(async (dir) => {
    const file = new URL("../docs/websocket-flow.yaml", import.meta.url).pathname;
    const r = await loadlabInProcess(["run", file, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 0, r.stdout + r.stderr);
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs as RunOut[];
    assertEquals(run.errors, {});
    const [flow] = run.flows;
    assertEquals([flow.sessions, flow.completed, flow.failed], [6, 6, 0]);
    const ws = run.ws as Record<string, number>;
    assertEquals([ws.handshakes, ws.messagesSent, ws.closesSent], [6, 12, 6]);
    // Two waiting steps a session: 12 messages answered; the room's other copies are unsolicited.
    assertEquals(ws.messagesReceived, 12 + ws.unsolicited);
    const hello = flow.steps.find((s) => s.label === "hello")!;
    assertEquals(hello.checks?.map((c) => [c.passed, c.failed]), [[6, 0], [6, 0]]);
  });
});

pool.test("a wait the run's end cuts is unfinished: sent and awaited, never 'no request was sent'", async () => {
  await withTempDir(async (dir) => {
    // The echo answers "ping", the rule takes only "pong": each session's wait outlives the run.
    await Deno.writeTextFile(
      `${dir}/exp.yaml`,
      `name: cut
targets: { app: { kind: builtin } }
flows:
  - name: nomatch
    steps:
      - ws: { connect: /ws/echo }
      - ws: { send: ping, match: { contains: pong }, timeout: 30s, name: waitpong }
loads: { l: { model: connections, connections: 2, duration: 500ms, gracefulStop: 200ms } }
`,
    );
    const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
    assertEquals(r.code, 4, r.stderr + r.stdout);
    assert(
      /failed: no answer its rule takes, 2 other messages came \(unfinished 2\)/.test(r.stdout),
      r.stdout,
    );
    const [run] = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs;
    assertEquals([run.unfinished, run.ws.messagesSent, run.ws.unsolicited], [2, 2, 2]);
  });
});
