import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import { findMethod, GrpcSchemaError, loadProtoFile, loadProtoset, rootOfDescriptorSet } from "./schema.ts";
import { splitCall } from "./call.ts";
import { encodeMessage, GrpcMessageError, parseMessageText } from "./message.ts";

const PROTO = new URL("../../../examples/grpc/greeter.proto", import.meta.url).pathname;

Deno.test("a call is pkg.Service/Method or ghz's pkg.Service.Method", () => {
  assertEquals(splitCall("helloworld.Greeter/SayHello"), ["helloworld.Greeter", "SayHello"]);
  assertEquals(splitCall("/helloworld.Greeter/SayHello"), ["helloworld.Greeter", "SayHello"]);
  assertEquals(splitCall("helloworld.Greeter.SayHello"), ["helloworld.Greeter", "SayHello"]);
  assertEquals([splitCall("SayHello"), splitCall("a/b/c"), splitCall("x.")], [null, null, null]);
});

Deno.test("a .proto with an import of a well-known type: its methods, their kinds and types", () => {
  const root = loadProtoFile(PROTO);
  const hello = findMethod(root, "helloworld.Greeter/SayHello");
  assertEquals([hello.path, hello.requestType.name, hello.responseType.name], [
    "helloworld.Greeter/SayHello",
    "HelloRequest",
    "HelloReply",
  ]);
  assertEquals([hello.clientStreaming, hello.serverStreaming], [false, false]);
  const stream = findMethod(root, "helloworld.Greeter.SayHellos");
  assertEquals([stream.clientStreaming, stream.serverStreaming], [false, true]);
  assertEquals(findMethod(root, "helloworld.Greeter/Collect").clientStreaming, true);
  assertEquals(
    findMethod(root, "helloworld.Greeter/Metadata").requestType.fullName,
    ".google.protobuf.Empty",
  );
});

Deno.test("an unknown service or method names the ones that exist", () => {
  const root = loadProtoFile(PROTO);
  throws(
    () => findMethod(root, "helloworld.Nope/SayHello"),
    /no service helloworld.Nope in the schema \(its services: helloworld.Greeter\)/,
  );
  throws(
    () => findMethod(root, "helloworld.Greeter/Nope"),
    /no method Nope in helloworld.Greeter \(its methods: Chat, Collect, Fail, Metadata, SayHello, SayHellos, Sleep\)/,
  );
});

Deno.test("imports are found in the import paths; a missing one says to add -i", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/inc/shapes`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/inc/shapes/point.proto`,
      'syntax = "proto3"; package shapes; message Point { int32 x = 1; }',
    );
    await Deno.writeTextFile(
      `${dir}/main.proto`,
      'syntax = "proto3"; package p; import "shapes/point.proto"; service S { rpc M(shapes.Point) returns (shapes.Point); }',
    );
    assertEquals(
      findMethod(loadProtoFile(`${dir}/main.proto`, [`${dir}/inc`]), "p.S/M").requestType.name,
      "Point",
    );
    throws(
      () => loadProtoFile(`${dir}/main.proto`),
      (err) => err instanceof GrpcSchemaError && /-i DIR/.test(err.hint),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a protoset (FileDescriptorSet) reads as the same schema; other bytes are refused", async () => {
  const root = loadProtoFile(PROTO);
  // deno-lint-ignore no-explicit-any
  const set = (root as any).toDescriptor("proto3");
  // deno-lint-ignore no-explicit-any
  const bytes = (protobuf as any).descriptor.FileDescriptorSet.encode(set).finish();
  const file = await Deno.makeTempFile({ suffix: ".protoset" });
  try {
    await Deno.writeFile(file, bytes);
    const method = findMethod(loadProtoset(file), "helloworld.Greeter/SayHellos");
    assertEquals([method.serverStreaming, method.requestType.fieldsArray.map((f) => f.name)], [true, [
      "name",
      "count",
      "detail",
    ]]);
  } finally {
    await Deno.remove(file);
  }
  throws(() => rootOfDescriptorSet(Uint8Array.of(0xff, 0xff, 0xff), "x"), /x: not a FileDescriptorSet/);
});

Deno.test("an Any may hold a Struct or an Empty, as a Go client knows them, whatever the schema imports", () => {
  const file = Deno.makeTempFileSync({ suffix: ".proto" });
  Deno.writeTextFileSync(
    file,
    'syntax = "proto3"; import "google/protobuf/any.proto"; package p;\n' +
      "message M { google.protobuf.Any extra = 1; }\nservice S { rpc Call(M) returns (M); }",
  );
  try {
    const type = findMethod(loadProtoFile(file), "p.S/Call").requestType;
    const url = "type.googleapis.com/google.protobuf.";
    const text = (extra: unknown) => new TextDecoder().decode(encodeMessage(type, { extra }));
    assertEquals(
      text({ "@type": `${url}Struct`, value: { a: "b" } }),
      `\n8\n*${url}Struct\x12\n\n\b\n\x01a\x12\x03\x1a\x01b`,
    );
    assertEquals(text({ "@type": `${url}Empty` }), `\n+\n)${url}Empty`);
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("a message as proto3 JSON: camelCase or proto names, int64 as strings, bytes base64, enums by name", () => {
  const type = findMethod(loadProtoFile(PROTO), "helloworld.Greeter/SayHello").requestType;
  const bytes = encodeMessage(type, {
    name: "x",
    count: 3,
    detail: { ids: ["123"], blob: "AAE=", mood: "HAPPY" },
  });
  assertEquals([...bytes], [0x0a, 1, 0x78, 0x10, 3, 0x1a, 9, 0x0a, 1, 0x7b, 0x12, 2, 0, 1, 0x18, 1]);
  assertEquals([...encodeMessage(type, parseMessageText("{}"))], []);
});

Deno.test("two members of one oneof: refused, or the later one kept as ghz's JSON reader keeps it", () => {
  const root = protobuf.parse(`syntax = "proto3"; package p;
    message Inner { oneof pick { string word = 1; int32 number = 2; } }
    message Outer { Inner inner = 1; repeated Inner list = 2; oneof top { string a = 3; Inner b = 4; } }`)
    .root;
  const type = root.lookupType("p.Outer");
  const two = { inner: { word: "w", number: 7 }, list: [{ number: 1, word: "" }], b: {}, a: "x" };
  throws(() => encodeMessage(type, two), /multiple values for oneof pick/);
  const later = type.decode(encodeMessage(type, two, "message", true)).toJSON();
  assertEquals(later, { inner: { number: 7 }, list: [{ word: "" }], a: "x" });
  // A oneof's scalar member given null is ghz's error (it sets no scalar to null).
  throws(() => encodeMessage(type, { a: null }, "message", true), /^GrpcMessageError: message\.a: .*null/);
});

Deno.test("a Duration in Go's words as ghz's JSON reader takes it; proto3 JSON's own form otherwise", () => {
  const file = Deno.makeTempFileSync({ suffix: ".proto" });
  Deno.writeTextFileSync(
    file,
    'syntax = "proto3"; import "google/protobuf/duration.proto"; package p;\n' +
      "message M { google.protobuf.Duration wait = 1; }\nservice S { rpc Call(M) returns (M); }",
  );
  try {
    const type = findMethod(loadProtoFile(file), "p.S/Call").requestType;
    const ghz = (wait: string) => type.decode(encodeMessage(type, { wait }, "message", true)).toJSON().wait;
    assertEquals(
      ["1500ms", "1h2m", "-1.5s", "1ns", "2µs", "0"].map(ghz),
      [
        { seconds: "1", nanos: 500000000 },
        { seconds: "3720" },
        { seconds: "-1", nanos: -500000000 },
        {
          nanos: 1,
        },
        { nanos: 2000 },
        {},
      ],
    );
    throws(() => encodeMessage(type, { wait: "1500ms" }), /invalid duration/);
    throws(() => ghz("1.5"), /invalid duration/);
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("a message that does not fit its type names its path in the JSON", () => {
  const type = findMethod(loadProtoFile(PROTO), "helloworld.Greeter/SayHello").requestType;
  const fails = (json: unknown, pattern: RegExp) =>
    throws(
      () => encodeMessage(type, json),
      (err) => err instanceof GrpcMessageError && pattern.test(err.message),
    );
  fails(
    { nmae: "x" },
    /^message\.nmae: helloworld.HelloRequest has no field nmae \(its fields: name, count, detail\)/,
  );
  fails({ detail: { idz: [] } }, /^message\.detail\.idz: helloworld.Detail has no field idz/);
  fails({ name: 5 }, /^message: .*name: expected string/);
  fails({ detail: { mood: "SAD" } }, /^message: .*mood/);
  fails([1], /^message: expected an object/);
  throws(() => encodeMessage(type, parseMessageText("{")), /^GrpcMessageError: message: not JSON/);
});
