/**
 * The engine's gRPC calls against the built-in target's gRPC endpoints (targets/app/grpc_endpoints.ts, on
 * node:http2): Echo, Sleep, Cpu and a server Stream each OK, a bad argument and an unknown method answered
 * with their status (trailers-only), a reply over the engine's cap refused, over h2c and TLS, a paced server
 * stream timed to its first message and to its end; the requests
 * are encoded by protobufjs against target.proto, not by the server's own field code.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import protobuf from "protobufjs";
import { parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { serveGrpcTarget } from "../../../targets/app/grpc_endpoints.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { type GrpcCall, grpcRequestSpec } from "./call.ts";
import { renderSummary } from "../../../report/terminal/summary.ts";
import { freePort } from "../../../system/ports.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const PROTO = new URL("../../../targets/app/target.proto", import.meta.url).pathname;
const root = await protobuf.load(PROTO);

function call(method: string, message: Record<string, unknown>): GrpcCall {
  const service = root.lookupService("loadlab.target.Target");
  const type = root.lookupType(service.methods[method].requestType);
  return {
    method: `loadlab.target.Target/${method}`,
    message: type.encode(type.fromObject(message)).finish(),
  };
}

function attack(url: string, calls: GrpcCall[], requests: number, tls?: { caFile: string }) {
  return runAttack(parseAttackConfig({
    url,
    protocol: url.startsWith("https") ? "h2" : "h2c",
    grpc: {},
    model: "count",
    connections: 1,
    streams: 8,
    requests,
    timeoutMs: 3000,
    generatorWarmup: false,
    ...(tls ? { tls } : {}),
    requestMix: calls.map((c) => grpcRequestSpec(c, 3000)),
  }));
}

Deno.test("the built-in target's gRPC endpoints: each method OK, a bad argument and an unknown method by status", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    const url = `http://127.0.0.1:${server.port}/`;
    const ok = await attack(url, [
      call("Echo", { data: btoa("hello") }),
      call("Sleep", { n: 2 }),
      call("Cpu", { n: 15 }),
      call("Stream", { n: 5, size: 100 }),
    ], 80);
    assertEquals([ok.requests, ok.errors], [80, {}]);
    assertEquals((ok.endpoints ?? []).map((e) => [e.name, e.requests > 0]), [
      ["loadlab.target.Target/Echo", true],
      ["loadlab.target.Target/Sleep", true],
      ["loadlab.target.Target/Cpu", true],
      ["loadlab.target.Target/Stream", true],
    ]);
    const bad = await attack(url, [call("Cpu", { n: 99 })], 3);
    assertEquals([bad.statusCodes, Object.keys(bad.errorMessages?.["grpc INVALID_ARGUMENT"] ?? {})], [
      { "grpc INVALID_ARGUMENT": 3 },
      ["n is 0..40"],
    ]);
    const unknown = await attack(
      url,
      [{ method: "loadlab.target.Target/Nope", message: new Uint8Array(0) }],
      3,
    );
    assertEquals(unknown.statusCodes, { "grpc UNIMPLEMENTED": 3 });
    // A reply over the engine's cap is refused from its prefix.
    const big = await runAttack(parseAttackConfig({
      url,
      protocol: "h2c",
      grpc: { maxReceiveBytes: 1000 },
      model: "count",
      connections: 1,
      requests: 2,
      generatorWarmup: false,
      requestMix: [grpcRequestSpec(call("Stream", { n: 1, size: 5000 }), 3000)],
    }));
    assertEquals(big.errors, { "grpc-too-big": 2 });
  } finally {
    await server.close();
  }
});

Deno.test("the built-in target's gRPC endpoints over TLS", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-grpc-target-" });
  const pair = await selfSignedPair();
  await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
  const server = await serveGrpcTarget({
    hostname: "127.0.0.1",
    port: 0,
    tls: { cert: pair.certPem, key: pair.keyPem },
  });
  try {
    const r = await attack(`https://localhost:${server.port}/`, [call("Echo", { data: btoa("tls") })], 20, {
      caFile: `${dir}/ca.pem`,
    });
    assertEquals([r.requests, r.errors, r.protocol], [20, {}, "h2"]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a server stream is timed to its first message and to its end, from the same intended send", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    const url = `http://127.0.0.1:${server.port}/`;
    // 5 replies 20 ms apart: the whole stream takes 80 ms or more (timers never fire early), the first
    // reply comes at once; a busy machine may delay both, never put the first after the end.
    const r = await attack(url, [call("Stream", { n: 5, size: 100, ms: 20 })], 8);
    assertEquals([r.requests, r.errors, r.firstMessage?.streams], [8, {}, 8]);
    const first = r.firstMessage!.latencyMs, whole = r.latencyMs;
    assertEquals(whole.min >= 80, true, `whole stream min ${whole.min} ms`);
    assertEquals(
      [first.p50 <= whole.p50, first.max <= whole.max],
      [true, true],
      JSON.stringify({ first, whole }),
    );
    const text = renderSummary(r, { color: false });
    assertEquals(
      text.includes("Response time distribution (whole stream | first message of 8 streams):"),
      true,
      text,
    );
    // A unary call is no stream: no first message apart.
    const unary = await attack(url, [call("Echo", { data: btoa("x") })], 4);
    assertEquals([unary.requests, unary.firstMessage], [4, undefined]);
  } finally {
    await server.close();
  }
});

Deno.test("calls to a refused port fail at once while the connection waits to redial, as grpc-go's do", async () => {
  const dead = `http://127.0.0.1:${freePort()}/`;
  const run = (grpc: boolean) =>
    runAttack(parseAttackConfig({
      url: dead,
      protocol: "h2c",
      ...(grpc ? { grpc: {}, requestMix: [grpcRequestSpec(call("Echo", {}), 3000)] } : {}),
      model: "connections",
      connections: 1,
      streams: 4,
      durationMs: 1500,
      generatorWarmup: false,
    }));
  const calls = await run(true);
  const failed = Object.values(calls.errors).reduce((a, b) => a + b, 0);
  // Paced by grpc-go's backoff (a redial after 1 s), not by a pause after each refused dial; each failed
  // call costs what grpc-go's does (ghz makes 14k to 90k a second here, loadlab 10 us each), and none
  // starts past the stop.
  assertEquals([calls.requests, Object.keys(calls.errors), failed > 1000, failed <= 155_000], [
    0,
    ["connect"],
    true,
    true,
  ]);
  const http = await run(false);
  const refused = Object.values(http.errors).reduce((a, b) => a + b, 0);
  // HTTP dials again for each request, 10 ms after a refusal: at most 150 dials a stream in 1.5 s (the
  // streams share a dial when they ask together, and drift apart on a busy machine).
  assertEquals([Object.keys(http.errors), refused > 0 && refused <= 4 * 160], [["connect"], true]);
});

Deno.test("a concurrency schedule keeps its calls in flight at each step's count until the count is done", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  const logFile = await Deno.makeTempFile({ suffix: ".csv" });
  try {
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.port}/`,
      protocol: "h2c",
      grpc: {},
      model: "count",
      connections: 1,
      streams: 4,
      concurrency: 4,
      concurrencySteps: [{ atMs: 0, concurrency: 1 }, { atMs: 400, concurrency: 4 }],
      requests: 60,
      timeoutMs: 3000,
      generatorWarmup: false,
      logFile,
      requestMix: [grpcRequestSpec(call("Sleep", { n: 20 }), 3000)],
    }));
    const calls = Deno.readTextFileSync(logFile).trim().split("\n").slice(1).map((l) =>
      l.split(";").map(Number)
    );
    // The most calls in flight at once before the step (those that started before it) and over the run.
    const most = (rows: number[][]) =>
      Math.max(...rows.map(([, s]) => rows.filter(([, s2, e2]) => s2 <= s && s < e2).length));
    const early = calls.filter(([, s]) => s < 350_000);
    assertEquals([run.requests, calls.length, early.length > 3, most(early), most(calls)], [
      60,
      60,
      true,
      1,
      4,
    ]);
  } finally {
    await server.close();
    await Deno.remove(logFile);
  }
});

Deno.test("a rate or its phases beside a concurrency schedule: each call waits for its tick, however late", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  const logFile = await Deno.makeTempFile({ suffix: ".csv" });
  try {
    const run = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.port}/`,
      protocol: "h2c",
      grpc: {},
      model: "count",
      connections: 1,
      streams: 3,
      concurrency: 3,
      concurrencySteps: [{ atMs: 0, concurrency: 1 }, { atMs: 200, concurrency: 3 }],
      tickPhases: [[400, 25], [0, 50]],
      requests: 16,
      timeoutMs: 3000,
      generatorWarmup: false,
      logFile,
      requestMix: [grpcRequestSpec(call("Sleep", { n: 10 }), 3000)],
    }));
    // Call k starts at its tick, 40 ms apart for 400 ms, then 20 ms, or later (timers never fire early).
    const starts = Deno.readTextFileSync(logFile).trim().split("\n").slice(1).map((l) =>
      Number(l.split(";")[1])
    )
      .sort((a, b) => a - b);
    const early = starts.map((s, k) => s - (k <= 10 ? k * 40 : 200 + k * 20) * 1000).filter((d) =>
      d < -2_000
    );
    assertEquals([run.requests, starts.length, early], [16, 16, []]);
  } finally {
    await server.close();
    await Deno.remove(logFile);
  }
});

Deno.test("a stream interval pauses between a client stream's messages, sent as DATA frames apart", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    const echo = call("Echo", { data: btoa("x") });
    const r = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${server.port}/`,
      protocol: "h2c",
      grpc: { streamIntervalMs: 60 },
      model: "count",
      connections: 1,
      streams: 2,
      requests: 4,
      timeoutMs: 3000,
      generatorWarmup: false,
      requestMix: [
        grpcRequestSpec({
          ...echo,
          message: [echo.message as Uint8Array, new Uint8Array(), new Uint8Array()],
        }, 3000),
      ],
    }));
    // Three messages, two pauses of 60 ms before the stream ends (timers never fire early).
    assertEquals([r.requests, r.errors, r.latencyMs.min >= 120], [4, {}, true], `min ${r.latencyMs.min} ms`);
  } finally {
    await server.close();
  }
});
