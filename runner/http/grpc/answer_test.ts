/**
 * A gzip answer whose deflate data is corrupt after a good header: the message names the byte of the
 * deflate data where the fault shows, as Go's flate does (`flate: corrupt input before offset N`; the
 * offsets here are Go's own, read off Go's compress/gzip for the same bytes).
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { GrpcAnswer } from "./answer.ts";
import type { GrpcFields } from "../../../grpc/trailers.ts";

/** One header field as text, handed over as the HPACK decoder hands its bytes. */
function onField(fields: GrpcFields, name: string, value: string): void {
  const [n, v] = [name, value].map((t) => new TextEncoder().encode(t));
  fields.fieldBytes(n, 0, n.length, v, 0, v.length);
}

const HEADER = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

function answerTo(gz: number[]): [string | null, string] {
  const answer = new GrpcAnswer();
  answer.start(true);
  onField(answer.fields, "content-type", "application/grpc");
  onField(answer.fields, "grpc-encoding", "gzip");
  answer.head(200, false);
  const frame = Uint8Array.of(1, 0, 0, 0, gz.length, ...gz);
  return [answer.data(frame, 0, frame.length), answer.message];
}

Deno.test("corrupt deflate data after a good gzip header names Go's offset into it", () => {
  // A block of the reserved type 3 in the first byte.
  assertEquals(answerTo([...HEADER, 0xff, 1, 2, 3]), [
    "grpc-protocol",
    "a gzip message of 14 bytes corrupt before deflate byte 1 (invalid block type)",
  ]);
  // A header with a file name, then a stored block whose length check fails at its fifth byte.
  const named = [0x1f, 0x8b, 8, 8, 0, 0, 0, 0, 0, 0xff, 0x78, 0x79, 0];
  assertEquals(answerTo([...named, 1, 5, 0, 0, 0, 9, 9]), [
    "grpc-protocol",
    "a gzip message of 20 bytes corrupt before deflate byte 5 (invalid stored block lengths)",
  ]);
  // Not gzip at all stays so.
  assertEquals(
    answerTo([1, 2, 3, 4, 5, 6])[1],
    "a compressed message of 6 bytes that is not gzip (incorrect header check)",
  );
});
