import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { encodeH2Request, writeHeadersFrames } from "./request.ts";
import { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import {
  CONTINUATION,
  FLAG_END_HEADERS,
  FLAG_END_STREAM,
  frameFlags,
  frameLength,
  frameStreamId,
  frameType,
  HEADERS,
} from "../../../http2/frames.ts";
import { requestSpec } from "../../../tests/fixtures/request_spec.ts";

/** The fields of a request's header block, decoded by the HPACK decoder (frames joined). */
function fieldsOf(frames: Uint8Array): Array<[string, string]> {
  const block: number[] = [];
  for (let p = 0; p < frames.length; p += 9 + frameLength(frames, p)) {
    block.push(...frames.subarray(p + 9, p + 9 + frameLength(frames, p)));
  }
  const fields: Array<[string, string]> = [];
  const decoder = new HpackDecoder(4096, 1 << 20);
  decoder.decodeStatus(Uint8Array.from(block), 0, block.length, (name, value) => fields.push([name, value]));
  return fields;
}

Deno.test("h2 request: pseudo-headers from the URL, Host as :authority, connection headers dropped", () => {
  const r = encodeH2Request(
    new URL("https://example.test:8443/base?q=1"),
    requestSpec({ headers: [["Host", "api.test"], ["Connection", "keep-alive"], ["X-A", "1"]] }),
  );
  assertEquals(fieldsOf(r.frames), [
    [":method", "GET"],
    [":scheme", "https"],
    [":authority", "api.test"],
    [":path", "/base?q=1"],
    ["x-a", "1"],
    ["user-agent", "loadlab"],
  ]);
  assertEquals([frameType(r.frames, 0), frameFlags(r.frames, 0)], [
    HEADERS,
    FLAG_END_HEADERS | FLAG_END_STREAM,
  ]);
  assertEquals(r.body, null);
});

Deno.test("h2 request: a body leaves the stream open for DATA and gets its content-length", () => {
  const body = new TextEncoder().encode("{}");
  const r = encodeH2Request(new URL("http://h/"), requestSpec({ method: "POST", path: "/p", body }));
  assertEquals(frameFlags(r.frames, 0), FLAG_END_HEADERS);
  assertEquals(fieldsOf(r.frames).find(([n]) => n === "content-length"), ["content-length", "2"]);
  assertEquals(r.body, body);
});

Deno.test("h2 request: a header block past 16 KiB goes on in CONTINUATION; every frame gets the stream id", () => {
  const big = "v".repeat(40_000);
  const r = encodeH2Request(new URL("http://h/"), requestSpec({ headers: [["x-big", big]] }));
  assertEquals(r.frameStarts.length, 3);
  const out = new Uint8Array(r.frames.length + 5);
  const end = writeHeadersFrames(out, 5, r, 0x7fff_fffd);
  assertEquals(end, out.length);
  const frames = out.subarray(5);
  const kinds = [...r.frameStarts].map((at) => [frameType(frames, at), frameStreamId(frames, at)]);
  assertEquals(kinds, [[HEADERS, 0x7fff_fffd], [CONTINUATION, 0x7fff_fffd], [CONTINUATION, 0x7fff_fffd]]);
  assertEquals(frameFlags(frames, r.frameStarts[2]) & FLAG_END_HEADERS, FLAG_END_HEADERS);
  assertEquals(frameFlags(frames, 0) & FLAG_END_HEADERS, 0);
  assertEquals(fieldsOf(frames).find(([n]) => n === "x-big")?.[1].length, 40_000);
});
