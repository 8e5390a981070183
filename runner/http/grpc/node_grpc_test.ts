/**
 * The engine's gRPC calls against @grpc/grpc-js on Node (another project's server, examples/grpc/server.js),
 * through the whole run over h2c (and once over TLS, verified by its CA, on both of loadlab's TLS paths):
 * unary calls on several streams, a server stream, client-streaming and bidi calls, a status other than OK
 * counted by its code's name with its message, an unknown method (UNIMPLEMENTED), the deadline sent as
 * grpc-timeout and honoured by the server, a reply past the receive cap. Needs `npm install --prefix
 * examples`; without it (or without node) the test skips with the reason, except under CI=true.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import protobuf from "protobufjs";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { type GrpcCall, grpcRequestSpec } from "./call.ts";
import { selfSignedPair } from "../../../targets/tls_cert.ts";
import { reflectSchema } from "./reflection.ts";
import { findMethod } from "./schema.ts";
import {
  GREETER_PROTO as PROTO,
  nodeGreeterSkip,
  withNodeGreeter,
} from "../../../tests/fixtures/node_greeter.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const skip = nodeGreeterSkip("the grpc-js conformance test");

const root = skip === null ? await protobuf.load(PROTO) : null;

/** A call of `method` (`helloworld.Greeter/...`) with `message` encoded as its request type. */
function call(method: string, message: Record<string, unknown>, metadata: [string, string][] = []): GrpcCall {
  const service = root!.lookupService("helloworld.Greeter");
  const type = root!.lookupType(service.methods[method].requestType);
  const bytes = type.encode(type.fromObject(message)).finish();
  return { method: `helloworld.Greeter/${method}`, message: bytes, metadata };
}

function attack(port: number, calls: GrpcCall[], extra: Partial<AttackConfigInput> = {}) {
  const timeoutMs = (extra.timeoutMs as number | undefined) ?? 3000;
  return runAttack(parseAttackConfig({
    url: `http://127.0.0.1:${port}`,
    protocol: "h2c",
    grpc: {},
    model: "count",
    connections: 2,
    streams: 4,
    requests: 40,
    timeoutMs,
    generatorWarmup: false,
    requestMix: calls.map((c) => grpcRequestSpec(c, timeoutMs)),
    ...extra,
  } as AttackConfigInput));
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name: `gRPC calls vs @grpc/grpc-js on Node: ${name}`, ignore: skip !== null, fn });

test("unary calls on 8 streams, a server stream of 5, each OK", async () => {
  await withNodeGreeter(async (port) => {
    const r = await attack(port, [
      call("SayHello", { name: "loadlab" }),
      call("SayHellos", { name: "x", count: 5 }),
    ]);
    assertEquals([r.requests, r.errors], [40, {}]);
    assertEquals(r.statusCodes, { "200": 40 });
    // Each method is an endpoint of its own, by its name.
    const endpoints = (r.endpoints ?? []).map((e) => [e.name, e.requests, e.errors]);
    assertEquals(endpoints.length, 2);
    ok(endpoints.every(([, requests]) => (requests as number) > 0), JSON.stringify(endpoints));
    assertEquals(endpoints.map(([name]) => name), [
      "helloworld.Greeter/SayHello",
      "helloworld.Greeter/SayHellos",
    ]);
  });
});

test("a status other than OK is a response under its code's kind, its grpc-message the message", async () => {
  await withNodeGreeter(async (port) => {
    const r = await attack(port, [call("Fail", { code: 14, message: "down for ✓ maintenance" })], {
      requests: 10,
    });
    assertEquals([r.requests, r.errors, r.statusCodes], [10, {}, { "grpc UNAVAILABLE": 10 }]);
    const messages = r.errorMessages?.["grpc UNAVAILABLE"] ?? {};
    assertEquals(Object.keys(messages), ["down for ✓ maintenance"]);
  });
});

test("an unknown method is UNIMPLEMENTED", async () => {
  await withNodeGreeter(async (port) => {
    const r = await attack(port, [{ method: "helloworld.Greeter/Nope", message: new Uint8Array(0) }], {
      requests: 4,
    });
    assertEquals([r.errors, r.statusCodes], [{}, { "grpc UNIMPLEMENTED": 4 }]);
  });
});

test("the deadline goes as grpc-timeout: a call past it ends DEADLINE_EXCEEDED or times out, nothing else", async () => {
  await withNodeGreeter(async (port) => {
    const r = await attack(port, [call("Sleep", { ms: 5000 })], { requests: 4, timeoutMs: 300 });
    // The server's DEADLINE_EXCEEDED is an answer (a request under that status); loadlab's own timeout is
    // not.
    const answered = r.statusCodes["grpc DEADLINE_EXCEEDED"] ?? 0;
    assertEquals([r.requests, answered + (r.errors.timeout ?? 0), Object.keys(r.errors).length <= 1], [
      answered,
      4,
      true,
    ]);
  });
});

test("a reply past the receive cap is grpc-too-big, the connection goes on", async () => {
  await withNodeGreeter(async (port) => {
    const r = await attack(port, [call("SayHello", { name: "a name longer than the cap" })], {
      requests: 6,
      grpc: { maxReceiveBytes: 8 },
    } as never);
    assertEquals(r.errors, { "grpc-too-big": 6 });
  });
});

test("over TLS (grpcs): the server verified by its CA, on OpenSSL by FFI and on Deno's TLS", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-grpc-tls-" });
  try {
    const pair = await selfSignedPair();
    await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
    await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem);
    await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem);
    await withNodeGreeter(async (port) => {
      for (const transport of ["epoll", "deno"] as const) {
        const r = await runAttack(parseAttackConfig({
          url: `https://localhost:${port}/`,
          protocol: "h2",
          grpc: {},
          model: "count",
          connections: 1,
          streams: 4,
          requests: 12,
          transport,
          timeoutMs: 3000,
          generatorWarmup: false,
          tls: { caFile: `${dir}/ca.pem` },
          requestMix: [grpcRequestSpec(call("SayHello", { name: "tls" }), 3000)],
        }));
        assertEquals([transport, r.requests, r.errors, r.protocol], [transport, 12, {}, "h2"]);
      }
      // Reflection verifies the server by the same CA.
      const reflected = await reflectSchema(`https://localhost:${port}`, 3000, { caFile: `${dir}/ca.pem` });
      assertEquals(findMethod(reflected, "helloworld.Greeter/SayHello").requestType.name, "HelloRequest");
    }, { TLS_CERT: `${dir}/cert.pem`, TLS_KEY: `${dir}/key.pem` });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

test("client-streaming and bidi calls: the messages sent in order, the replies read to the trailers", async () => {
  await withNodeGreeter(async (port) => {
    const stream = (method: string): GrpcCall => {
      const type = root!.lookupType("helloworld.HelloRequest");
      const messages = ["a", "b", "c"].map((name) => type.encode(type.fromObject({ name })).finish());
      return { method: `helloworld.Greeter/${method}`, message: messages };
    };
    const r = await attack(port, [stream("Collect"), stream("Chat")], { requests: 20 });
    assertEquals([r.requests, r.errors], [20, {}]);
  });
});

test("gzip: every message sent compressed, flagged and named by grpc-encoding, decompressed by the server", async () => {
  await withNodeGreeter(async (port) => {
    const hello = { ...call("SayHello", { name: "zipped ".repeat(20) }), compress: "gzip" as const };
    const stream = {
      ...call("Collect", { name: "z" }),
      message: [call("SayHello", { name: "a" }).message as Uint8Array],
      compress: "gzip" as const,
    };
    const r = await attack(port, [hello, stream], { requests: 20 });
    assertEquals([r.requests, r.errors], [20, {}]);
  });
});

test("reflection (grpc.reflection.v1): the services and their types, the well-known ones included", async () => {
  await withNodeGreeter(async (port) => {
    const reflected = await reflectSchema(`http://127.0.0.1:${port}`, 3000);
    const stream = findMethod(reflected, "helloworld.Greeter.SayHellos");
    assertEquals([stream.serverStreaming, stream.requestType.fieldsArray.map((f) => f.name)], [true, [
      "name",
      "count",
      "detail",
    ]]);
    assertEquals(
      findMethod(reflected, "helloworld.Greeter/Metadata").requestType.fullName,
      ".google.protobuf.Empty",
    );
    const r = await attack(port, [call("SayHello", { name: "reflected" })], { requests: 4 });
    assertEquals(r.errors, {});
  });
});
