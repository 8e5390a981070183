import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { compressBytes, isCompressible, negotiateEncoding } from "./compress.ts";
import { normalizeRelPath } from "./static_files.ts";

Deno.test("negotiateEncoding follows the mode and the client's Accept-Encoding", () => {
  assertEquals(negotiateEncoding("gzip, deflate, br", true), "br");
  assertEquals(negotiateEncoding("gzip, deflate, br", "gzip"), "gzip");
  assertEquals(negotiateEncoding("gzip", "brotli"), null);
  assertEquals(negotiateEncoding("br;q=0, gzip", true), "gzip");
  assertEquals(negotiateEncoding(null, true), null);
  assertEquals(negotiateEncoding("gzip", false), null);
});

Deno.test("isCompressible: text types yes, images no", () => {
  assertEquals(
    ["text/html; charset=utf-8", "application/json", "image/svg+xml", "image/png", null].map(isCompressible),
    [true, true, true, false, false],
  );
});

Deno.test("compressBytes produces valid gzip", async () => {
  const text = "loadlab ".repeat(500);
  const gz = await compressBytes(new TextEncoder().encode(text), "gzip");
  assertEquals(gunzipSync(gz).toString(), text);
});

Deno.test("normalizeRelPath keeps paths inside the static root", () => {
  assertEquals(normalizeRelPath("images/./photo.png"), "images/photo.png");
  assertEquals(normalizeRelPath("a/../b.html"), "b.html");
  assertEquals(normalizeRelPath("../etc/passwd"), null);
  assertEquals(normalizeRelPath("%2e%2e/x"), null);
  assertEquals(normalizeRelPath(""), null);
});
