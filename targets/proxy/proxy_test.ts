import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { decodeEntry, encodeEntry } from "./proxy.ts";

Deno.test("a cached entry round-trips status, headers (repeated ones too) and binary body", () => {
  const body = new Uint8Array([0, 10, 255, 10, 13]);
  const entry = {
    status: 200,
    headers: [["Content-Type", "image/png"], ["Vary", "a"], ["Vary", "b"]] as [string, string][],
    body,
  };
  const decoded = decodeEntry(new Uint8Array(encodeEntry(entry)));
  assertEquals(decoded.status, 200);
  assertEquals(decoded.headers, entry.headers);
  assertEquals([...decoded.body], [...body]);
});
