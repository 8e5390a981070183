import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { grpcCodeOfHttpStatus, grpcStatusValue } from "./status.ts";
import { grpcTimeoutOf } from "./timeout.ts";
import {
  callOutcome,
  decodeGrpcMessage,
  encodeGrpcMessage,
  GrpcFields,
  STATUS_GARBLED,
  STATUS_MISSING,
} from "./trailers.ts";

/** One header field as text, handed over as the HPACK decoder hands its bytes. */
function onField(fields: GrpcFields, name: string, value: string): void {
  const [n, v] = [name, value].map((t) => new TextEncoder().encode(t));
  fields.fieldBytes(n, 0, n.length, v, 0, v.length);
}

Deno.test("grpc-status values: signed decimals as grpc-go's uint32 codes, anything else garbled", () => {
  const value = (text: string) => grpcStatusValue(new TextEncoder().encode(text), 0, text.length);
  assertEquals(["0", "14", "16", "17", "999", "1000", "+17", "-1", "-0", "4294967313"].map(value), [
    0,
    14,
    16,
    17,
    999,
    1000,
    17,
    4294967295,
    0,
    17,
  ]);
  assertEquals(["", "-", "1a", "OK", " 1", "--1", "1234567890123456"].map(value), [
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
    -1,
  ]);
});

Deno.test("an HTTP status without grpc-status maps as gRPC's table says", () => {
  assertEquals([400, 401, 403, 404, 429, 502, 503, 504, 500].map(grpcCodeOfHttpStatus), [
    13,
    16,
    7,
    12,
    14,
    14,
    14,
    14,
    2,
  ]);
});

Deno.test("grpc-timeout: milliseconds while they fit in 8 digits, coarser units rounded up after", () => {
  assertEquals(grpcTimeoutOf(250), "250m");
  assertEquals(grpcTimeoutOf(0.2), "1m");
  assertEquals(grpcTimeoutOf(99_999_999), "99999999m");
  assertEquals(grpcTimeoutOf(100_000_000), "100000S");
});

Deno.test("grpc-message is percent-encoded UTF-8 both ways; a broken escape stays as written", () => {
  assertEquals(encodeGrpcMessage("bad 100% é"), "bad 100%25 %C3%A9");
  assertEquals(decodeGrpcMessage("bad 100%25 %C3%A9"), "bad 100% é");
  assertEquals(decodeGrpcMessage("50%zz"), "50%zz");
});

Deno.test("the call's outcome: grpc-status first, else the HTTP status's mapping, else broken", () => {
  const fields = new GrpcFields();
  onField(fields, "content-type", "application/grpc+proto");
  onField(fields, "grpc-status", "14");
  onField(fields, "grpc-message", "down");
  assertEquals([fields.grpcContentType, callOutcome(fields, 200), fields.message], [true, 14, "down"]);
  fields.reset();
  assertEquals(callOutcome(fields, 200), STATUS_MISSING);
  assertEquals(callOutcome(fields, 503), 14);
  onField(fields, "grpc-status", "x");
  assertEquals(callOutcome(fields, 503), STATUS_GARBLED);
  onField(fields, "grpc-encoding", "identity");
  assertEquals(fields.encoding, "");
  onField(fields, "grpc-encoding", "gzip");
  assertEquals(fields.encoding, "gzip");
});
