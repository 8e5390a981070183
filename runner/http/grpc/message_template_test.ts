import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import protobuf from "protobufjs";
import { findMethod, loadProtoFile } from "./schema.ts";
import { encodeMessage, GrpcMessageError } from "./message.ts";
import { grpcBodyBound, grpcBodyTemplate, type RefusalSink, writeGrpcBody } from "../protobuf_template.ts";
import { bodySpecOfText, quotePlaceholders } from "./message_template.ts";
import { MessageReader } from "../../../grpc/framing.ts";
import { gunzipSync } from "node:zlib";

const PROTO = new URL("../../../examples/grpc/greeter.proto", import.meta.url).pathname;
const root = loadProtoFile(PROTO);
const hello = findMethod(root, "helloworld.Greeter/SayHello").requestType;
const utf8 = new TextEncoder();

/** The messages `spec` fills with `row` (by `names`), or the refusal's text. */
function fill(
  type: protobuf.Type,
  text: string,
  names: string[],
  row: string[],
  stream = false,
): Uint8Array[] | string {
  const spec = bodySpecOfText(type, text, stream, names);
  // The spec crosses to the workers by structured clone.
  const template = grpcBodyTemplate(structuredClone(spec), (n) => names.indexOf(n));
  const values = row.map((v) => utf8.encode(v));
  const buf = new Uint8Array(grpcBodyBound(template, values));
  const sink: RefusalSink = { refused: "", refusedKind: "bad-value" };
  const end = writeGrpcBody(buf, 0, template, values, sink);
  if (end < 0) return sink.refused;
  const messages: Uint8Array[] = [];
  const reader = new MessageReader();
  reader.onMessage = (m) => messages.push(m.slice());
  reader.feed(buf, 0, end);
  return messages;
}

const decoded = (type: protobuf.Type, bytes: Uint8Array) =>
  type.toObject(type.decode(bytes), { longs: String, enums: String, bytes: String });

Deno.test("a message's placeholders are filled and encoded as protobuf encodes the filled JSON", () => {
  const text = '{"name": "hi {{ who }}!", "count": {{ n }}, "detail": {"ids": ["1", "{{ id }}"], ' +
    '"blob": "{{ blob }}", "mood": "{{ mood }}"}}';
  const names = ["who", "n", "id", "blob", "mood"];
  const rows: [string[], unknown][] = [
    [["ann", "7", "9007199254740993", "AAE=", "HAPPY"], {
      name: "hi ann!",
      count: 7,
      detail: { ids: ["1", "9007199254740993"], blob: "AAE=", mood: "HAPPY" },
    }],
    [["", "-3", "-5", "", "1"], { name: "hi !", count: -3, detail: { ids: ["1", "-5"], blob: "", mood: 1 } }],
    [["é", "2147483647", "0", "_-8", "MOOD_UNSPECIFIED"], {
      name: "hi é!",
      count: 2147483647,
      detail: { ids: ["1", "0"], blob: "/+8=", mood: "MOOD_UNSPECIFIED" },
    }],
  ];
  for (const [row, expected] of rows) {
    const [bytes] = fill(hello, text, names, row) as Uint8Array[];
    assertEquals(decoded(hello, bytes), decoded(hello, encodeMessage(hello, expected)));
  }
});

Deno.test("a value that is not of its field's kind refuses the call, naming the field", () => {
  const text = '{"count": "{{ n }}", "detail": {"mood": "{{ m }}", "blob": "{{ b }}"}}';
  const names = ["n", "m", "b"];
  assertEquals(
    fill(hello, text, names, ["x", "HAPPY", ""]),
    "message.count as filled is not a int32: not sent",
  );
  assertEquals(
    fill(hello, text, names, ["2147483648", "HAPPY", ""]),
    "message.count as filled is not a int32: not sent",
  );
  assertEquals(
    fill(hello, text, names, ["1", "SAD", ""]),
    "message.detail.mood as filled is not a value of its enum: not sent",
  );
  assertEquals(
    fill(hello, text, names, ["1", "HAPPY", "a"]),
    "message.detail.blob as filled is not a bytes: not sent",
  );
});

Deno.test("a client stream's messages are each a template; built-in functions fill without data", () => {
  const collect = findMethod(root, "helloworld.Greeter/Collect").requestType;
  const messages = fill(collect, '[{"name": "a"}, {"count": {{ $randomNumber(5,5) }}}]', [], [], true);
  assertEquals((messages as Uint8Array[]).map((m) => decoded(collect, m)), [{ name: "a" }, { count: 5 }]);
});

Deno.test("what cannot fit whatever the values are is refused with its path before the load", () => {
  const fails = (text: string, pattern: RegExp, names: string[] = ["x"]) =>
    throws(
      () => bodySpecOfText(hello, text, false, names),
      (err) => err instanceof GrpcMessageError && pattern.test(err.message),
    );
  fails(
    '{"nmae": "{{ x }}"}',
    /^message\.nmae: helloworld.HelloRequest has no field nmae \(its fields: name/,
  );
  fails('{"detail": {"idz": ["{{ x }}"]}}', /^message\.detail\.idz: helloworld.Detail has no field idz/);
  fails('{"detail": "{{ x }}"}', /^message\.detail: expected an object \(a helloworld.Detail\)/);
  fails('{"name": "{{ y }}"}', /^message: \{\{ y \}\} is unknown/);
  fails('{"name": "{{ x }}", "count": "many"}', /^message: .*count: invalid integer/);
  const sleep = findMethod(root, "helloworld.Greeter/Metadata").requestType;
  throws(() => bodySpecOfText(sleep, '{"a":"{{ x }}"}', false), /google.protobuf.Empty; write it whole/);
});

Deno.test("unquoted placeholders are quoted; those in strings are left as they are", () => {
  assertEquals(
    quotePlaceholders('{"a": {{ n }}, "b": "{{ s }} }}", "c": "\\"{{"}'),
    '{"a": "{{ n }}", "b": "{{ s }} }}", "c": "\\"{{"}',
  );
});

Deno.test("every scalar kind is written as protobuf writes it", () => {
  const type = protobuf.parse(
    `syntax = "proto3"; package k; message All { double d = 1; float f = 2; sint32 s32 = 3; sint64 s64 = 4;
     fixed32 x32 = 5; fixed64 x64 = 6; sfixed32 y32 = 7; sfixed64 y64 = 8; uint64 u64 = 9; bool b = 10;
     uint32 u32 = 11; int64 i64 = 12; }`,
    { keepCase: true },
  ).root.lookupType("k.All");
  const names = ["d", "f", "s32", "s64", "x32", "x64", "y32", "y64", "u64", "b", "u32", "i64"];
  const text = `{${names.map((n) => `"${n}": {{ ${n} }}`).join(", ")}}`;
  const row = [
    "-1.5e3",
    "0.25",
    "-2147483648",
    "-9223372036854775808",
    "4294967295",
    "18446744073709551615",
    "-7",
    "-4503599627370497",
    "18446744073709551615",
    "true",
    "4294967295",
    "-9007199254740993",
  ];
  const [bytes] = fill(type, text, names, row) as Uint8Array[];
  const json = Object.fromEntries(names.map((n, k) => [n, n === "b" ? true : row[k]]));
  assertEquals(decoded(type, bytes), decoded(type, encodeMessage(type, json)));
  assertEquals(
    fill(type, text, names, row.map((v, k) => k === 9 ? "yes" : v)),
    "message.b as filled is not a bool: not sent",
  );
  assertEquals(
    fill(type, text, names, row.map((v, k) => k === 0 ? "0x10" : v)),
    "message.d as filled is not a double: not sent",
  );
});

Deno.test("with compress each filled message is gzip-compressed and flagged; over the cap refuses the call", () => {
  const spec = bodySpecOfText(hello, '[{"name": "{{ who }}"}, {"name": "{{ who }}{{ who }}"}]', true, [
    "who",
  ]);
  const template = grpcBodyTemplate({ ...spec, compress: "gzip", maxSendBytes: 300 }, () => 0);
  const sink: RefusalSink = { refused: "", refusedKind: "bad-value" };
  const write = (who: string) => {
    const values = [utf8.encode(who)];
    const buf = new Uint8Array(grpcBodyBound(template, values));
    return { buf, end: writeGrpcBody(buf, 0, template, values, sink) };
  };
  // Incompressible enough to grow under gzip: the bound still holds it.
  const { buf, end } = write("q7");
  const messages: Uint8Array[] = [];
  const flags: number[] = [];
  let at = 0;
  while (at < end) {
    const length = new DataView(buf.buffer).getUint32(at + 1);
    flags.push(buf[at]);
    messages.push(gunzipSync(buf.subarray(at + 5, at + 5 + length)));
    at += 5 + length;
  }
  assertEquals([at, flags], [end, [1, 1]]);
  assertEquals(messages.map((m) => decoded(hello, m).name), ["q7", "q7q7"]);
  // 200 bytes fit; the second message (400) is over the 300-byte cap.
  assertEquals(write("x".repeat(200)).end, -1);
  assertEquals([sink.refusedKind, sink.refused], [
    "grpc RESOURCE_EXHAUSTED",
    "message as filled is over the 300-byte send cap (--max-send): not sent",
  ]);
});

Deno.test("a oneof's two members with a placeholder: the later one alone is sent (ghz), else refused", () => {
  const pick = protobuf.parse(`syntax = "proto3"; package p;
    message Req { oneof pick { int32 code = 1; string message = 2; } Inner inner = 3; }
    message Inner { oneof pick { int32 code = 1; string message = 2; } }`).root.lookupType("p.Req");
  const sent = (text: string, later = true) => {
    const spec = bodySpecOfText(pick, text, false, ["n"], later);
    const template = grpcBodyTemplate(structuredClone(spec), () => 0);
    const values = [utf8.encode("7")];
    const buf = new Uint8Array(grpcBodyBound(template, values));
    const end = writeGrpcBody(buf, 0, template, values, { refused: "", refusedKind: "bad-value" });
    return buf.slice(5, end);
  };
  // On the wire: the one member, not both (a receiver would keep the last, but the bytes are ghz's).
  const only = (json: unknown) => encodeMessage(pick, json);
  assertEquals(sent('{"code": 5, "message": "m{{ n }}"}'), only({ message: "m7" }));
  assertEquals(sent('{"message": "m{{ n }}", "code": 5}'), only({ code: 5 }));
  assertEquals(sent('{"code": "{{ n }}", "message": "m"}'), only({ message: "m" }));
  assertEquals(
    sent('{"inner": {"message": "{{ n }}", "code": 5}, "code": 1}'),
    only({ inner: { code: 5 }, code: 1 }),
  );
  throws(() => sent('{"code": 5, "message": "m{{ n }}"}', false), /message: multiple values for oneof pick/);
});
