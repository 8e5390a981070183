import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { FRAME_HEADERS, H3FrameReader, READ_DATA, READ_FRAME } from "../../../http3/frames.ts";
import { QpackDecoder } from "../../../http3/qpack_decoder.ts";
import { encodeH3Mix } from "./request.ts";

/** The frames of a request stream's octets: each HEADERS as its field list, each DATA as its text. */
function framesOf(bytes: Uint8Array): Array<[string, unknown]> {
  const reader = new H3FrameReader(false);
  const decoder = new QpackDecoder();
  const out: Array<[string, unknown]> = [];
  for (let at = 0; at < bytes.length;) {
    at = reader.read(bytes, at, bytes.length);
    if (reader.event === READ_FRAME && reader.type === FRAME_HEADERS) {
      const fields: string[][] = [];
      const off = reader.payloadOff;
      decoder.decodeSection(0, reader.payload, off, off + reader.payloadLen, (n, v) => fields.push([n, v]));
      out.push(["HEADERS", fields]);
    } else if (reader.event === READ_DATA) {
      out.push([
        "DATA",
        new TextDecoder().decode(bytes.subarray(reader.dataOff, reader.dataOff + reader.dataLen)),
      ]);
    }
  }
  return out;
}

Deno.test("each request of the mix is one HEADERS frame and, with a body, one DATA frame", () => {
  const url = new URL("https://example.test:8443/base?q=1");
  const [get, post] = encodeH3Mix(url, [
    { method: "GET", path: "/a", headers: [["Connection", "close"], ["X-Tag", "t1"]], weight: 1 },
    {
      method: "POST",
      path: "/b",
      headers: [["Host", "other.test"], ["User-Agent", "me"]],
      body: new TextEncoder().encode("hello"),
      weight: 1,
    },
  ], [0, 1]);
  assertEquals(framesOf(get.bytes), [["HEADERS", [
    [":method", "GET"],
    [":scheme", "https"],
    [":authority", "example.test:8443"],
    [":path", "/a"],
    ["x-tag", "t1"],
    ["user-agent", "loadlab"],
  ]]]);
  assertEquals(framesOf(post.bytes), [
    ["HEADERS", [
      [":method", "POST"],
      [":scheme", "https"],
      [":authority", "other.test"],
      [":path", "/b"],
      ["user-agent", "me"],
      ["content-length", "5"],
    ]],
    ["DATA", "hello"],
  ]);
  assertEquals([get.endpoint, post.endpoint, get.head], [0, 1, false]);
});
