/**
 * gRPC calls from scripts, end to end against @grpc/grpc-js on Node (another project's server,
 * examples/grpc/server.js): a session script's `s.grpc.invoke` (unary, server stream, client stream,
 * metadata, a status other than OK counted by its code's name, each method an endpoint of its own), its
 * mistakes (an unknown method, a field its message type lacks) as `script` errors at the script's line,
 * a schema that does not load refused on import; and k6's `k6/net/grpc` converted and run as it is
 * (`client.load`, `connect`, `invoke`, `grpc.StatusOK`, a `Stream`, reflection). Needs `npm install
 * --prefix examples`; without it (or node) the test skips with the reason, except under CI=true. Loads
 * are bounded counts.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { nodeGreeterSkip, withNodeGreeter } from "./fixtures/node_greeter.ts";
import { importScript } from "../runner/script/module.ts";
import { sessionScriptPath } from "../runner/script/k6/convert/converted_file.ts";
import { k6Fixture, runK6Fixture, runK6Text } from "./k6_run.ts";
import { withScriptVars } from "./helpers.ts";

const JUDGED = `"grpc_req_duration{name:helloworld.Greeter/SayHello}"`;

const script = (name: string) => new URL(`./fixtures/scripts/${name}`, import.meta.url).pathname;

const skip = nodeGreeterSkip("script_grpc_test");

function run(
  port: number,
  path: string,
  sessions: number,
  connection: "keep-alive" | "per-arrival" = "keep-alive",
) {
  return runAttack(parseAttackConfig({
    url: `http://127.0.0.1:${port}`,
    protocol: "h2c",
    connection,
    model: "count",
    requests: sessions,
    connections: 2,
    timeoutMs: 3000,
    intervalMs: 100,
    script: { path },
  }));
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name: `gRPC from scripts: ${name}`, ignore: skip !== null, fn });

test("s.grpc.invoke: each call kind, its method an endpoint, a failed status by its code's name", () =>
  withNodeGreeter(async (port) => {
    const result = await run(port, script("grpc_greeter.ts"), 4);
    const flow = result.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [4, 4, 0]);
    const steps = Object.fromEntries(flow.steps.map((s) => [s.label, [s.requests, s.errors]]));
    assertEquals(steps, {
      "helloworld.Greeter/SayHello": [4, 0],
      "helloworld.Greeter/SayHellos": [4, 0],
      "helloworld.Greeter/Collect": [4, 0],
      metadata: [4, 0],
      "helloworld.Greeter/Fail": [0, 4],
    });
    const checks = Object.fromEntries(
      flow.steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, [c.passed, c.failed]]),
    );
    for (const name of ["hello", "three replies", "collected", "metadata sent", "not found"]) {
      assertEquals(checks[name], [4, 0], name);
    }
    assertEquals([result.errors, result.statusCodes["grpc NOT_FOUND"]], [{}, 4]);
    assertEquals(Object.keys(result.errorMessages?.["grpc NOT_FOUND"] ?? {}), ["no such thing"]);
    const endpoints = (result.endpoints ?? []).map((e) => e.name).sort();
    ok(endpoints.includes("helloworld.Greeter/Fail") && endpoints.includes("metadata"), String(endpoints));
  }));

test("s.grpc.invoke on a connection of its own per session (per-arrival)", () =>
  withNodeGreeter(async (port) => {
    const result = await run(port, script("grpc_greeter.ts"), 2, "per-arrival");
    const flow = result.flows![0];
    assertEquals([flow.sessions, flow.completed, flow.failed], [2, 2, 0]);
    assertEquals([result.errors, result.statusCodes["grpc NOT_FOUND"]], [{}, 2]);
    for (const c of flow.steps.flatMap((s) => s.checks ?? [])) assertEquals([c.name, c.failed], [c.name, 0]);
  }));

test("an unknown method and a message that does not fit: script errors at the script's line", () =>
  withNodeGreeter(async (port) => {
    const result = await run(port, script("grpc_mistakes.ts"), 4);
    const messages = Object.keys(result.errorMessages?.script ?? {}).sort();
    assertEquals(messages.length, 2, String(messages));
    ok(
      /no method SayGoodbye in helloworld\.Greeter \(its methods: .*SayHello.*\) \(grpc_mistakes\.ts:7\)/
        .test(messages[1]),
    );
    ok(
      /message\.detail\.idz: helloworld\.Detail has no field idz .*\(grpc_mistakes\.ts:8\)/.test(messages[0]),
    );
    assertEquals(result.requests, 0);
  }));

test("a call on an HTTP/1.1 connection is refused at the script's line, naming the protocol to use", () =>
  withNodeGreeter(async (port) => {
    const result = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${port}`,
      model: "count",
      requests: 2,
      connections: 1,
      intervalMs: 100,
      script: { path: script("grpc_greeter.ts") },
    }));
    const messages = Object.keys(result.errorMessages?.script ?? {});
    assertEquals(messages.length, 1, String(messages));
    ok(
      /needs an HTTP\/2 stream: give the load protocol: h2c .*\(grpc_greeter\.ts:8\)/.test(messages[0]),
      messages[0],
    );
    assertEquals(result.requests, 0);
  }));

Deno.test("a script whose gRPC schema does not load is refused on import, naming the export", async () => {
  await rejects(
    importScript(script("grpc_bad_schema.ts")),
    /grpc_bad_schema\.ts: export grpc: .*no_such\.proto/,
  );
});

test("k6/net/grpc converted: load, connect, invoke against grpc.StatusOK, a Stream, reflection", () =>
  withNodeGreeter(async (port) => {
    const vars = { GRPC_ADDR: `127.0.0.1:${port}` };
    const result = await withScriptVars(
      vars,
      () => run(port, sessionScriptPath(k6Fixture("grpc_greeter.js")), 4),
    );
    const flow = result.flows![0];
    assertEquals(result.errorMessages?.script, undefined);
    assertEquals([flow.sessions, flow.completed, flow.failed], [4, 4, 0]);
    const checks = Object.fromEntries(
      flow.steps.flatMap((s) => s.checks ?? []).map((c) => [c.name, [c.passed, c.failed]]),
    );
    assertEquals(checks, {
      "status is OK": [4, 0],
      "reply names the VU": [4, 0],
      unavailable: [4, 0],
      "three replies": [4, 0],
    });
    assertEquals([result.errors, result.statusCodes["grpc UNAVAILABLE"]], [{}, 4]);
    const reflected = await withScriptVars(
      vars,
      () => run(port, sessionScriptPath(k6Fixture("grpc_reflect.js")), 2),
    );
    assertEquals([reflected.flows![0].completed, reflected.errors], [2, {}]);
    assertEquals(reflected.flows![0].steps[0].checks?.[0].passed, 2);
  }));

test("k6/net/grpc through loadlab run: the script's address is the target, or sent to --target app, said", () =>
  withNodeGreeter(async (port) => {
    const addr = `127.0.0.1:${port}`;
    // No --target: the address -e gives is the run's target.
    const own = await runK6Fixture("grpc_address.js", null, ["-e", `GRPC_ADDR=${addr}`, "-i", "2"]);
    assertEquals(own.code, 0, own.text);
    ok(/✓ status is OK/.test(own.stdout), own.stdout);
    // The address the text spells, sent to the target and said at start-up.
    const sent = await runK6Fixture("grpc_address.js", `http://${addr}`, ["-i", "2"]);
    assertEquals(sent.code, 0, sent.text);
    ok(sent.text.includes(`requests to http://127.0.0.1:1 go to http://${addr} (--target app)`), sent.text);
    // An address the environment gives, elsewhere than the target: refused at connect, never sent there.
    const other = await runK6Fixture("grpc_address.js", `http://${addr}`, [
      "-e",
      "GRPC_ADDR=127.0.0.1:1",
      "-i",
      "2",
    ]);
    // Each iteration throws there, and k6 passes a run whose iterations throw unless a threshold fails.
    assertEquals(other.code, 0, other.text);
    // A script calling gRPC only: its calls are k6's grpc_req_duration, thresholds named as written.
    const text = Deno.readTextFileSync(k6Fixture("grpc_address.js"))
      .replace("../../../examples/grpc", new URL("../examples/grpc", import.meta.url).pathname)
      .replace("export default", `export const options = { thresholds: { ${JUDGED}: ["max<5000"] } };\n$&`);
    const judged = await runK6Text(text, null, [
      "-e",
      `GRPC_ADDR=${addr}`,
      "-i",
      "2",
      "--summary-export",
      "x.json",
    ]);
    assertEquals(judged.code, 0, judged.text);
    const metrics = JSON.parse(Deno.readTextFileSync(`${judged.dir}/x.json`)).metrics;
    assertEquals(Object.keys(metrics).filter((m) => /^(grpc|http)_req/.test(m)).sort(), [
      "grpc_req_duration",
      "grpc_req_duration{name:helloworld.Greeter/SayHello}",
    ]);
    assertEquals(metrics["grpc_req_duration{name:helloworld.Greeter/SayHello}"].thresholds, {
      "max<5000": false,
    });
    ok(/no session completed: every session failed, none sent a request/.test(other.stderr), other.stderr);
    ok(other.text.includes("127.0.0.1:1: not the run's gRPC server"), other.text);
    assertEquals(other.results?.runs[0].requests ?? 0, 0, other.text);
  }));

test("k6/net/grpc in setup() and teardown(): connect, invoke and streams there as k6 does, unmeasured", () =>
  withNodeGreeter(async (port) => {
    const run = await runK6Fixture("grpc_setup.js", null, ["-e", `GRPC_ADDR=127.0.0.1:${port}`, "-i", "2"]);
    assertEquals(run.code, 0, run.text);
    ok(/✓ setup's call is OK/.test(run.stdout), run.stdout);
    ok(/✓ setup's failed call has its code/.test(run.stdout), run.stdout);
    ok(/✓ setup's stream got its replies/.test(run.stdout), run.stdout);
    ok(!/teardown\(\) failed/.test(run.text), run.text);
    // Only the iterations' calls are the run's requests.
    assertEquals(run.results?.runs[0].requests, 2, run.text);
  }));

test("k6/net/grpc streams count in k6's grpc_streams, grpc_streams_msgs_sent and _received", () =>
  withNodeGreeter(async (port) => {
    const proto = new URL("../examples/grpc", import.meta.url).pathname;
    const script = `import grpc from "k6/net/grpc";
const client = new grpc.Client();
client.load(["${proto}"], "greeter.proto");
export const options = {
  thresholds: {
    grpc_streams: ["count==2"],
    grpc_streams_msgs_sent: ["count==2"],
    grpc_streams_msgs_received: ["count==6"],
  },
};
export default async () => {
  client.connect("127.0.0.1:${port}", { plaintext: true });
  await new Promise((resolve) => {
    const stream = new grpc.Stream(client, "helloworld.Greeter/SayHellos");
    stream.on("end", resolve);
    stream.write({ name: "ann", count: 3 });
  });
};
`;
    const run = await runK6Text(script, null, ["-i", "2", "--summary-export", "x.json"]);
    assertEquals(run.code, 0, run.text);
    const metrics = JSON.parse(Deno.readTextFileSync(`${run.dir}/x.json`)).metrics;
    assertEquals(
      ["grpc_streams", "grpc_streams_msgs_sent", "grpc_streams_msgs_received"].map((m) => metrics[m]?.count),
      [2, 2, 6],
    );
  }));

test("k6/net/grpc connect to a port nobody listens on throws k6's error there, as k6 dials at connect", async () => {
  const proto = new URL("../examples/grpc", import.meta.url).pathname;
  const run = await runK6Text(
    `import grpc from "k6/net/grpc";
import { check } from "k6";
const client = new grpc.Client();
client.load(["${proto}"], "greeter.proto");
export const options = { thresholds: { checks: ["rate==1"] } };
export default function () {
  let why = "";
  try {
    client.connect("127.0.0.1:1", { plaintext: true, timeout: "2s" });
  } catch (e) {
    why = String(e);
  }
  check(why, { "refused at connect": (w) => w.includes("dial tcp 127.0.0.1:1: connect: connection refused") });
}
`,
    null,
    ["-i", "2"],
  );
  assertEquals(run.code, 0, run.text);
  ok(/✓ refused at connect/.test(run.stdout), run.stdout);
});
