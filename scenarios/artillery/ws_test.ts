/**
 * Artillery `engine: ws` scripts: converted to a flow of ws steps the experiment schema accepts (send,
 * wait, think, capture, match, loops unrolled; the rest named with its path); and, end to end, Artillery 2
 * and loadlab running the same script against a counting echo server send the same number of messages
 * over the same number of connections. Artillery missing: that part skips with the reason, except under
 * CI=true.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parse as parseYaml } from "yaml";
import { artilleryToExperiment } from "../../tests/artillery_import.ts";
import { ArtilleryError } from "./common.ts";
import { findProgram } from "../../system/path_lookup.ts";
import { experimentSchema } from "../schema/experiment.ts";

/** The paths of the issues converting `script` names, sorted; none when it converts. */
function issuePathsOf(script: string): string[] {
  try {
    artilleryToExperiment(parseYaml(script));
    return [];
  } catch (err) {
    if (!(err instanceof ArtilleryError)) throw err;
    return err.issues.map((i) => i.path).sort();
  }
}

const SCRIPT = (port: number) => `
config:
  target: ws://127.0.0.1:${port}/chat?room=a
  phases:
    - duration: 2
      arrivalRate: 4
scenarios:
  - engine: ws
    flow:
      - send: hello
      - think: 0.05
      - loop:
          - send: { op: ping }
        count: 3
      - send: bye
`;

Deno.test("an engine: ws script of sends and thinks becomes a flow, loops unrolled", () => {
  const exp = artilleryToExperiment(parseYaml(SCRIPT(8080))).experiment;
  assertEquals(exp.targets, { target: { url: "http://127.0.0.1:8080" } });
  const load = (exp.loads as Record<string, Record<string, unknown>>).artillery;
  const ping = { ws: { send: '{"op":"ping"}' } };
  assertEquals(load.flows, [{
    name: "scenario 0",
    weight: 1,
    steps: [
      { ws: { connect: "/chat?room=a" } },
      { ws: { send: "hello" } },
      { think: "50ms" },
      ping,
      ping,
      ping,
      { ws: { send: "bye" } },
      { ws: { close: true } },
    ],
  }]);
});

Deno.test("an engine: ws script's steps loadlab cannot run are named with their paths", () => {
  const script = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow: [{ think: 1 }, { send: a }, { loop: [{ send: b }] }, { connect: x }]
`;
  assertEquals(issuePathsOf(script), [
    "scenarios[0].flow[2].loop",
    "scenarios[0].flow[3].connect",
  ]);
});

const FLOW_SCRIPT = `
config:
  target: ws://127.0.0.1:8080/ws/room?room=a
  phases: [{ duration: 2, arrivalRate: 2 }]
scenarios:
  - engine: ws
    flow:
      - send:
          payload: { op: join }
          capture: { json: $.from, as: me }
          match: { json: $.self, value: true }
      - think: 0.1
      - loop:
          - send: "ping {{ me }}"
        count: 2
      - wait:
          match: { regexp: "ping" }
`;

Deno.test("an engine: ws scenario with capture, match and wait becomes a flow of ws steps", () => {
  const exp = artilleryToExperiment(parseYaml(FLOW_SCRIPT)).experiment;
  assertEquals(exp.targets, { target: { url: "http://127.0.0.1:8080" } });
  const load = (exp.loads as Record<string, Record<string, unknown>>).artillery;
  assertEquals(load.ws, undefined);
  assertEquals(load.flows, [{
    name: "scenario 0",
    weight: 1,
    steps: [
      { ws: { connect: "/ws/room?room=a" } },
      {
        ws: { send: '{"op":"join"}', match: { json: "$.self", equals: true } },
        capture: [{ json: "$.from", as: "me" }],
      },
      { think: "100ms" },
      { ws: { send: "ping {{ me }}" } },
      { ws: { send: "ping {{ me }}" } },
      { ws: { wait: { regexp: "ping" } } },
      { ws: { close: true } },
    ],
  }]);
  const parsed = experimentSchema.safeParse(exp);
  ok(parsed.success, JSON.stringify(parsed.error?.issues));
});

Deno.test("what an engine: ws flow cannot convert is named with its path", () => {
  const script = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow:
      - send: { payload: a, capture: { header: x, as: y } }
      - send: { payload: b, match: { json: $.a, value: { deep: 1 } } }
      - wait: { capture: { json: $.a, as: a }, timeout: 3 }
`;
  assertEquals(issuePathsOf(script), [
    "scenarios[0].flow[0].send.capture",
    "scenarios[0].flow[1].send.match",
    "scenarios[0].flow[2].wait.timeout",
  ]);
});

/** A WebSocket echo server that counts messages and connections. */
function countingServer() {
  const counts = { messages: 0, connections: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.onopen = () => counts.connections++;
    socket.onmessage = (e) => {
      counts.messages++;
      socket.send(e.data);
    };
    return response;
  });
  return { counts, server, port: server.addr.port };
}

async function runScript(argv: (file: string) => string[], cwd: string) {
  const { counts, server, port } = countingServer();
  try {
    const file = `${cwd}/chat-${port}.yml`;
    await Deno.writeTextFile(file, SCRIPT(port));
    const [cmd, ...args] = argv(file);
    const out = await new Deno.Command(cmd, { args, cwd, stdout: "piped", stderr: "piped" }).output();
    ok(out.success, new TextDecoder().decode(out.stderr).slice(-600));
    return { ...counts };
  } finally {
    await server.shutdown();
  }
}

const ARTILLERY = findProgram("artillery");
if (!ARTILLERY && Deno.env.get("CI") === "true") {
  throw new Error("artillery is not on PATH (npm i -g artillery)");
}
if (!ARTILLERY) {
  console.log("artillery_ws_test: the comparison with Artillery skipped: artillery not on PATH");
}

Deno.test({
  name: "Artillery and loadlab on the same engine: ws script send the same messages on the same connections",
  ignore: !ARTILLERY,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "loadlab-artillery-ws-" });
    try {
      const main = new URL("../../main.ts", import.meta.url).pathname;
      const ours = await runScript(
        (f) => [Deno.execPath(), "run", "-A", main, "run", f, "--out-dir", `${dir}/out`],
        dir,
      );
      const theirs = await runScript((f) => [ARTILLERY!, "run", f], dir);
      // 2 s at 4 users a second: 8 users, 5 messages each.
      assertEquals(ours, { messages: 40, connections: 8 });
      assertEquals(theirs, ours);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("loops that send nothing end at once, whatever their count; a bad step in a loop is one problem", () => {
  const started = Date.now();
  const nested = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow:
      - send: hello
      - loop: [{ loop: [], count: 1000000000 }]
        count: 1000000000
`;
  const load = (artilleryToExperiment(parseYaml(nested)).experiment.loads as any).artillery;
  assertEquals(load.flows[0].steps.map((s: { ws: unknown }) => s.ws), [
    { connect: "/" },
    { send: "hello" },
    { close: true },
  ]);
  const bad = nested.replace("loop: [],", "loop: [{ connect: x }],");
  assertEquals(issuePathsOf(bad), ["scenarios[0].flow[1].loop[0].loop[0].connect"]);
  ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
});

Deno.test("an engine: ws think past loadlab's longest duration is named at the script's path", () => {
  // 1e308 seconds was Infinity ms, refused at loads.artillery.ws.thinkAfterMs[0], a key the script lacks.
  const script = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow: [{ send: a }, { think: 1e308 }, { send: b }]
`;
  assertEquals(issuePathsOf(script), ["scenarios[0].flow[1].think"]);
});

Deno.test("an engine: ws send fills templates as a request does: loop values now, captures per session", () => {
  const script = `
config: { target: "ws://127.0.0.1:1/", phases: [{ duration: 1, arrivalRate: 1 }] }
scenarios:
  - engine: ws
    flow:
      - send: { payload: hi, capture: { json: $.id, as: id } }
      - loop: [{ send: "n{{ $loopCount }} {{ id }}" }]
        count: 2
`;
  const load = (artilleryToExperiment(parseYaml(script)).experiment.loads as any).artillery;
  const sends = load.flows[0].steps.map((s: { ws: { send?: string } }) => s.ws.send).filter(Boolean);
  assertEquals(sends, ["hi", "n0 {{ id }}", "n1 {{ id }}"]);
});
