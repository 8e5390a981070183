/**
 * Hostile gRPC call input refused before the load: a message value with a stray `{{` (no `}}`) in a number
 * field was taken for a template and every call counted `bad-value` unsent, now it is checked as the
 * value it is; metadata values with control characters (the server ended the connection with GOAWAY on the
 * first call) are refused from `-H` and from a file's gRPC step, a `-bin` name's value (sent base64) aside.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import protobuf from "protobufjs";
import { bodySpecOfText } from "./message_template.ts";
import { GrpcMessageError } from "./message.ts";
import { grpcStepSchema } from "../../grpc_step_spec.ts";
import { parseAttackArgs } from "../../../cli/attack/args.ts";

const root = protobuf.parse(`syntax = "proto3"; package p;
message Req { string a = 1; int32 n = 2; }`).root;
const req = root.lookupType("p.Req");

Deno.test("a stray {{ in a message value is the value's own text, checked before the load", () => {
  throws(() => bodySpecOfText(req, '{"n": "{{ x }"}', false, []), GrpcMessageError);
  throws(() => bodySpecOfText(req, '{"n": "{{"}', false, []), /invalid integer/);
  // In a string field it is text, sent as written; a whole placeholder is still a slot.
  assertEquals(bodySpecOfText(req, '{"a": "{{ x }"}', false, []).messages[0].slots, []);
  assertEquals(bodySpecOfText(req, '{"n": "{{ x }}"}', false, ["x"]).messages[0].slots.length, 1);
});

Deno.test("metadata values with control characters are refused, from -H and from a file's step", () => {
  const attack = (header: string) =>
    parseAttackArgs(
      ["grpc://127.0.0.1:50051", "--call", "p.S/M", "--reflect", "-H", header, "-n", "1"],
      { openFileLimit: 1024 },
    );
  for (const value of ["a\u0001b", "a\tb", "a\u007fb"]) {
    throws(() => attack(`x-a: ${value}`), /-H: metadata x-a: its value has a control character/);
  }
  // The message names the field, never the value (it may be a credential).
  throws(() => attack("authorization: Bearer s3cret\u0001"), (err: Error) => !err.message.includes("s3cret"));
  ok(attack("trace-bin: \u0001\u00ff"));
  const step = (metadata: Record<string, string>) => grpcStepSchema.safeParse({ call: "p.S/M", metadata });
  const bad = step({ "x-a": "one\ntwo" });
  ok(!bad.success && bad.error.issues[0].path.join(".") === "metadata.x-a", JSON.stringify(bad));
  ok(step({ "x-a": "fine {{ token }}", "x-bin": "\u0000" }).success);
});
