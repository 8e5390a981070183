/**
 * Reflection against node:http2 servers that answer as the test says: a big real-sized schema (4,000
 * messages in one file) is read whole; answers that pass the schema cap (one file too big, a list of
 * services that never ends) are refused as a `GrpcSchemaError` naming the cap, in bounded time; the channel
 * it calls on takes calls one after another, and one past its deadline resets only its stream.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import http2 from "node:http2";
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import { reflectSchema } from "./reflection.ts";
import { findMethod, GrpcSchemaError, MAX_SCHEMA_BYTES } from "./schema.ts";
import { frameMessage } from "../../../grpc/framing.ts";
import { GRPC_DEADLINE_EXCEEDED } from "../../../grpc/status.ts";
import { OneOffChannel } from "../one_off_grpc.ts";

/** A FileDescriptorProto of package `big` with `count` messages and a service `big.S` calling the first. */
function bigFile(count: number): Uint8Array {
  const root = new protobuf.Root();
  const ns = root.define("big");
  for (let i = 0; i < count; i++) {
    ns.add(new protobuf.Type(`M${i}`).add(new protobuf.Field("a", 1, "string")));
  }
  ns.add(new protobuf.Service("S").add(new protobuf.Method("Call", "rpc", "M0", "M1")));
  // deno-lint-ignore no-explicit-any
  const set = (root as any).toDescriptor("proto3");
  // deno-lint-ignore no-explicit-any
  const FileDescriptorProto = (protobuf as any).descriptor.FileDescriptorProto;
  return FileDescriptorProto.encode(set.file[0]).finish();
}

/** A ServerReflectionResponse listing `names`, or carrying `file` (field 4's field 1). */
function listReply(names: string[]): Uint8Array {
  const w = protobuf.Writer.create().uint32((6 << 3) | 2).fork();
  for (const n of names) w.uint32((1 << 3) | 2).fork().uint32((1 << 3) | 2).string(n).ldelim();
  return w.ldelim().finish();
}
function fileReply(file: Uint8Array): Uint8Array {
  return protobuf.Writer.create().uint32((4 << 3) | 2).fork().uint32((1 << 3) | 2).bytes(file).ldelim()
    .finish();
}

type Answer = (
  stream: http2.ServerHttp2Stream,
  asksList: boolean,
  headers: http2.IncomingHttpHeaders,
) => void;

/** A reflection server whose every call is answered by `answer` (told whether it asks for the list). */
async function withServer(answer: Answer, fn: (origin: string) => Promise<void>): Promise<void> {
  const server = http2.createServer();
  server.on("stream", (stream, headers) => {
    stream.on("error", () => {});
    let first = true;
    stream.on("data", (chunk: Uint8Array) => {
      if (!first) return;
      first = false;
      stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
      stream.on("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      // ServerReflectionRequest's tag: list_services is field 7, file_containing_symbol field 4.
      answer(stream, chunk[5] === ((7 << 3) | 2), headers);
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  try {
    await fn(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
  } finally {
    await new Promise((done) => server.close(done));
  }
}

Deno.test("reflection reads a schema of 12,000 messages (a file of 280 KB)", async () => {
  const file = bigFile(12_000);
  ok(file.length > 250_000, `${file.length} bytes`);
  await withServer((stream, asksList) => {
    stream.end(frameMessage(asksList ? listReply(["big.S"]) : fileReply(file)));
  }, async (origin) => {
    const root = await reflectSchema(origin, 10_000);
    assertEquals(findMethod(root, "big.S/Call").path, "big.S/Call");
    ok(root.lookupType("big.M11999"));
  });
});

Deno.test("reflection answers past the schema cap are refused naming it, in bounded time", async () => {
  const refusedWithin = async (answer: Answer) => {
    const started = performance.now();
    await withServer(answer, (origin) =>
      rejects(
        reflectSchema(origin, 20_000),
        (err) =>
          err instanceof GrpcSchemaError && err.message.includes(`${MAX_SCHEMA_BYTES} bytes`) &&
          !err.message.includes("\n"),
      ));
    return performance.now() - started;
  };
  // A list of services that never ends (each reply a few names), sent as fast as the client reads.
  const endlessMs = await refusedWithin((stream) => {
    const chunk = frameMessage(listReply(Array.from({ length: 200 }, (_, i) => `svc.number${i}.S`)));
    const pump = () => {
      while (!stream.destroyed && !stream.closed && stream.write(chunk));
    };
    stream.on("drain", pump);
    pump();
  });
  ok(endlessMs < 15_000, `endless list refused after ${endlessMs} ms`);
});

Deno.test("reflection sends its metadata (ghz's --reflect-metadata) to a server that asks for it", async () => {
  await withServer((stream, asksList, headers) => {
    if (headers.authorization !== "Bearer t") {
      return void stream.close(http2.constants.NGHTTP2_REFUSED_STREAM);
    }
    stream.end(frameMessage(asksList ? listReply(["big.S"]) : fileReply(bigFile(2))));
  }, async (origin) => {
    await rejects(reflectSchema(origin, 5_000), GrpcSchemaError);
    const root = await reflectSchema(origin, 5_000, {}, { authorization: "Bearer t" });
    assertEquals(findMethod(root, "big.S/Call").path, "big.S/Call");
  });
});

Deno.test("a one-off channel takes calls one after another; one past its deadline leaves it usable", async () => {
  // The list is answered; a file is never answered.
  await withServer(
    (stream, asksList) => void (asksList && stream.end(frameMessage(listReply(["big.S"])))),
    async (
      origin,
    ) => {
      const channel = new OneOffChannel(origin, 5_000);
      const path = "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo";
      const [list, file] = [Uint8Array.of(0x3a, 0), Uint8Array.of(0x22, 1, 0x78)];
      try {
        const both = await Promise.all([list, list].map((m) => channel.call(path, [m], 5_000, 1 << 20)));
        assertEquals(both.map((a) => [a.status, a.replies.length]), [[0, 1], [0, 1]]);
        const late = await channel.call(path, [file], 300, 1 << 20);
        assertEquals([late.status, late.problem], [GRPC_DEADLINE_EXCEEDED, "no answer within 300 ms"]);
        assertEquals((await channel.call(path, [list], 5_000, 1 << 20)).status, 0);
      } finally {
        channel.close();
      }
    },
  );
});
