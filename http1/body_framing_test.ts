import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { bodyFraming, Framing, framingCloses, framingRefusal, keepAliveAsked } from "./body_framing.ts";
import { FramingFields } from "./framing_fields.ts";
import { FIELD_CONNECTION, FIELD_CONTENT_LENGTH, FIELD_TRANSFER_ENCODING } from "./chars.ts";

/** The facts of a head holding these framing fields, parsed as the framer parses them. */
function facts(fields: { cl?: string; te?: string; connection?: string }): FramingFields {
  const f = new FramingFields();
  f.reset();
  const put = (field: number, value: string) => {
    f.begin(field);
    for (const c of new TextEncoder().encode(value)) f.byte(c);
    f.end();
  };
  if (fields.cl !== undefined) put(FIELD_CONTENT_LENGTH, fields.cl);
  if (fields.te !== undefined) put(FIELD_TRANSFER_ENCODING, fields.te);
  if (fields.connection !== undefined) put(FIELD_CONNECTION, fields.connection);
  return f;
}

Deno.test("body framing: RFC 9112 6.3 in order, for a response and a request", () => {
  const response = (f: FramingFields, status = 200, isHead = false) => bodyFraming(f, status, false, isHead);
  assertEquals(response(facts({ cl: "5" }), 200, true), Framing.None); // HEAD
  for (const status of [101, 204, 304]) {
    assertEquals(response(facts({ te: "chunked" }), status), Framing.None);
  }
  assertEquals(response(facts({ te: "gzip, chunked", cl: "5" })), Framing.Chunked);
  assertEquals(response(facts({ te: "chunked, gzip" })), Framing.UntilClose);
  assertEquals(response(facts({ cl: "0" })), Framing.Length);
  assertEquals(response(facts({})), Framing.UntilClose);
  assertEquals(bodyFraming(facts({}), 0, true, false), Framing.None);
  assertEquals(bodyFraming(facts({ cl: "3" }), 0, true, false), Framing.Length);
});

Deno.test("body framing: refusals, and who refuses Transfer-Encoding with Content-Length or in HTTP/1.0", () => {
  const teCl = facts({ te: "chunked", cl: "5" });
  assertEquals(
    framingRefusal(facts({ te: "chunked, chunked" }), false, false, false),
    "chunked listed more than once",
  );
  assertEquals(framingRefusal(teCl, false, false, false), ""); // the engine reads it, then closes
  assertEquals(framingRefusal(teCl, false, false, true), "transfer-encoding with content-length");
  assertEquals(framingRefusal(facts({ te: "chunked" }), true, true, false), "transfer-encoding in HTTP/1.0");
  assertEquals(
    framingRefusal(facts({ te: "gzip" }), false, true, false),
    "transfer-encoding without final chunked",
  );
  assertEquals(framingRefusal(facts({ cl: "5" }), true, true, true), "");
});

Deno.test("body framing: keep-alive asked by version and Connection, and closes the framing forces", () => {
  assertEquals(keepAliveAsked(facts({}), false), true);
  assertEquals(keepAliveAsked(facts({ connection: "close" }), false), false);
  assertEquals(keepAliveAsked(facts({}), true), false);
  assertEquals(keepAliveAsked(facts({ connection: "Keep-Alive" }), true), true);
  assertEquals(keepAliveAsked(facts({ connection: "keep-alive, close" }), true), false);
  assertEquals(framingCloses(facts({}), false, 200, Framing.UntilClose), true);
  assertEquals(framingCloses(facts({}), false, 101, Framing.None), true);
  assertEquals(framingCloses(facts({ te: "chunked", cl: "5" }), false, 200, Framing.Chunked), true);
  assertEquals(framingCloses(facts({ te: "chunked" }), true, 200, Framing.Chunked), true);
  assertEquals(framingCloses(facts({ te: "chunked" }), false, 200, Framing.Chunked), false);
  assertEquals(framingCloses(facts({ cl: "5" }), true, 200, Framing.Length), false);
});
