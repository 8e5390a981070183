/**
 * @module
 * The request encoder: exact bytes for static pairs, static names and literal names behind an empty prefix
 * (Required Insert Count 0, Base 0), lower-cased names, `host` as `:authority`, and the headers RFC 9114 4.2
 * forbids refused by name.
 */
import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { QpackDecoder } from "./qpack_decoder.ts";
import { HeaderError } from "../http2/hpack/encoder.ts";
import { encodeRequestFields } from "./qpack_encoder.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("static pairs indexed, static names referenced, other names literal", () => {
  // GET (17: d1), https (23: d7), :authority name 0 (50 01 68), / (1: c1).
  assertEquals(
    hex(encodeRequestFields("GET", "https", "h", "/", [])),
    "0000" + "d1" + "d7" + "500168" + "c1",
  );
  // PATCH: :method name 15 (5f00 05 ...), /a: :path name 1 (51 02 2f61), user-agent name 95 (5f50 ...),
  // x-id: a literal name (24 782d6964), accept */* pair 29 (dd).
  const block = encodeRequestFields("PATCH", "http", "h", "/a", [["User-Agent", "x"], ["X-Id", "7"], [
    "Accept",
    "*/*",
  ]]);
  assertEquals(
    hex(block),
    "0000" + "5f00055041544348" + "d6" + "500168" + "51022f61" + "5f500178" + "24782d6964" + "0137" + "dd",
  );
});

Deno.test("sections decode to the fields given, host as :authority", () => {
  const block = encodeRequestFields("POST", "https", "ignored", "/items?q=1", [
    ["Host", "example.test:8443"],
    [
      "content-type",
      "application/json",
    ],
    ["x-long", "v".repeat(300)],
  ]);
  const fields: [string, string][] = [];
  assertEquals(new QpackDecoder().decodeSection(0, block, 0, block.length, (n, v) => fields.push([n, v])), 0);
  assertEquals(fields, [
    [":method", "POST"],
    [":scheme", "https"],
    [":authority", "example.test:8443"],
    [":path", "/items?q=1"],
    ["content-type", "application/json"],
    ["x-long", "v".repeat(300)],
  ]);
});

Deno.test("headers HTTP/3 refuses are named", () => {
  for (
    const [name, value] of [
      ["Connection", "close"],
      ["transfer-encoding", "chunked"],
      ["te", "gzip"],
      [
        ":path",
        "/",
      ],
      ["bad name", "x"],
      ["x", "a\r\nb"],
      ["x", " padded"],
    ]
  ) {
    throws(
      () => encodeRequestFields("GET", "https", "h", "/", [[name, value]]),
      (e) => e instanceof HeaderError,
    );
  }
  throws(() => encodeRequestFields("GE T", "https", "h", "/", []), /":method"/);
  assertEquals(encodeRequestFields("GET", "https", "h", "/", [["TE", "trailers"]]).length > 0, true);
});
