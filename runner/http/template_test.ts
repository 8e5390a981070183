/** Built-in placeholders filled per request: `$uuid()` is a fresh random UUID v4 each time. */
import { match, notStrictEqual } from "node:assert/strict";
import { partsOf, upperBound, writeParts } from "./template.ts";

Deno.test("$uuid() is a random UUID v4 (RFC 9562) at each fill", () => {
  const parts = partsOf('{"id":"{{ $uuid() }}"}', () => -1);
  const fill = () => {
    const buf = new Uint8Array(upperBound(parts, []));
    return new TextDecoder().decode(buf.subarray(0, writeParts(buf, 0, parts, [])));
  };
  const first = fill();
  match(first, /^\{"id":"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"\}$/);
  notStrictEqual(fill(), first);
});
