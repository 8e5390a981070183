/**
 * @module
 * The request encoder: exact wire bytes for the static-table cases (the bytes of RFC 7541 C.3.1 for a GET
 * of / over http), literals without indexing naming static entries, lower-cased names; every block decodes
 * with our decoder and with hpack.js to the same fields; connection-specific headers are refused by name.
 */
import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import hpack from "hpack.js";
import { HpackDecoder } from "./decoder.ts";
import { encodeRequestHeaders, HeaderError } from "./encoder.ts";

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("GET / over http: the fields of RFC 7541 C.3.1, all static, :authority literal", () => {
  // C.3.1 orders :path before :authority and indexes :authority; ours sends it as a literal, in RFC 9113
  // order.
  assertEquals(
    hex(encodeRequestHeaders("GET", "http", "www.example.com", "/", [])),
    "8286010f7777772e6578616d706c652e636f6d84",
  );
});

Deno.test("static indexes where the pair matches, literals naming static entries otherwise", () => {
  // POST (83), https (87), :authority literal (01 ..), :path literal (04 ..), user-agent name 58 (0f 2b).
  const block = encodeRequestHeaders("POST", "https", "h", "/a", [["User-Agent", "x"], ["X-Id", "7"]]);
  assertEquals(hex(block), "8387" + "010168" + "04022f61" + "0f2b0178" + "0004782d6964" + "0137");
  const put = encodeRequestHeaders("PUT", "http", "h", "/", []);
  assertEquals(hex(put), "020350555486" + "010168" + "84");
});

Deno.test("blocks decode to the same fields with our decoder and with hpack.js", () => {
  const headers: [string, string][] = [["Accept", "*/*"], ["Content-Type", "application/json"], [
    "x-long",
    "v".repeat(300),
  ]];
  const block = encodeRequestHeaders("DELETE", "https", "example.test:8443", "/items/1?q=2", headers);
  const want = [
    [":method", "DELETE"],
    [":scheme", "https"],
    [":authority", "example.test:8443"],
    [":path", "/items/1?q=2"],
    ["accept", "*/*"],
    ["content-type", "application/json"],
    ["x-long", "v".repeat(300)],
  ];
  const ours: string[][] = [];
  assertEquals(new HpackDecoder().decodeStatus(block, 0, block.length, (n, v) => ours.push([n, v])), 0);
  assertEquals(ours, want);
  const theirs = hpack.decompressor.create({ table: { maxSize: 4096 } });
  theirs.write(block);
  theirs.execute();
  const got: string[][] = [];
  for (let h = theirs.read(); h; h = theirs.read()) got.push([h.name, h.value]);
  assertEquals(got, want);
});

Deno.test("a host header becomes :authority and is not sent twice", () => {
  const fields: string[][] = [];
  const block = encodeRequestHeaders("GET", "http", "127.0.0.1:8080", "/", [["Host", "site.test"]]);
  new HpackDecoder().decodeStatus(block, 0, block.length, (n, v) => fields.push([n, v]));
  assertEquals(fields.filter(([n]) => n === ":authority" || n === "host"), [[":authority", "site.test"]]);
});

Deno.test("connection-specific and malformed headers are refused, naming the header", () => {
  const refused: [string, string][] = [
    ["Connection", "keep-alive"],
    ["keep-alive", "timeout=5"],
    ["Proxy-Connection", "close"],
    ["Transfer-Encoding", "chunked"],
    ["Upgrade", "h2c"],
    ["te", "gzip"],
    [":path", "/x"],
    ["bad name", "v"],
    ["x", "a\r\nb"],
    ["x", " padded"],
  ];
  for (const [name, value] of refused) {
    throws(() => encodeRequestHeaders("GET", "http", "h", "/", [[name, value]]), (err: unknown) => {
      assert(err instanceof HeaderError, String(err));
      assertEquals(err.header, name);
      return true;
    });
  }
  assertEquals(encodeRequestHeaders("GET", "http", "h", "/", [["TE", "trailers"]]).length > 0, true);
});
