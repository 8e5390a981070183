/**
 * What an h2 stream keeps for a flow step (h2/kept.ts), fed as the frame handlers feed it: an interim
 * head's fields are dropped, the final head's kept (names as HTTP/2 sends them, found case-insensitively,
 * UTF-8 values read as over HTTP/1.1), trailers ignored once the head is done, DATA pieces joined, and
 * `reset` forgets it all for the next step.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { H2KeptResponse } from "./kept.ts";

/** A UTF-8 text as the HPACK decoder hands it over: one char per octet. */
const octets = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));

Deno.test("an h2 kept response: the final head's fields, UTF-8 values, the body's pieces; reset forgets", () => {
  const kept = new H2KeptResponse();
  kept.reset(true);
  kept.onField(":status", "103");
  kept.onField("x-kind", "interim");
  kept.headEnded(103);
  kept.onField(":status", "200");
  kept.onField("x-kind", "final");
  kept.onField("set-cookie", "a=1");
  kept.onField("set-cookie", octets("b=ünï"));
  kept.headEnded(200);
  const body = new TextEncoder().encode('xx{"a":"é"}yy');
  kept.data(body, 2, 7);
  kept.data(body, 7, body.length - 2);
  assertEquals([kept.status, kept.headDone], [200, true]);
  assertEquals([kept.headers("X-Kind"), kept.headers("Set-Cookie")], [["final"], ["a=1", "b=ünï"]]);
  assertEquals(kept.body, '{"a":"é"}');
  kept.reset(false);
  assertEquals([kept.status, kept.headDone, kept.keepBody, kept.headers("x-kind"), kept.body], [
    0,
    false,
    false,
    [],
    "",
  ]);
});
