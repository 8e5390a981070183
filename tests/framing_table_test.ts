/**
 * @module
 * The framing table (tests/framing_cases.ts) through both readers of HTTP/1.1 responses, the engine's
 * parser and the balancer's framing (tests/framing_harness.ts): each case whole, split at every single
 * byte, and one byte per read; every run must conclude the same: error or not, completed, status, body
 * length, keep-alive. A well-formed case is also run with a second response pipelined after it, which
 * must be read as such (its end is exact). Then every case once through the real balancer, from a
 * scripted upstream to a raw client: what the balancer refuses is a counted 502.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { ResponseParser } from "../runner/http/h1/response_parser.ts";
import { FRAMING_CASES } from "./framing_cases.ts";
import { checkCase, latin1, throughBalancer } from "./framing_harness.ts";

for (const c of FRAMING_CASES) {
  Deno.test(`framing: ${c.name} (engine and balancer; whole, split at every byte, byte by byte)`, () => {
    checkCase(c);
  });
}

const NEXT = "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";

Deno.test("framing: a second response pipelined after each kept-alive case is read exactly", () => {
  let checked = 0;
  for (const c of FRAMING_CASES) {
    if (c.error || !c.keepAlive || c.untilClose) continue;
    const bytes = latin1(c.wire + NEXT);
    const p = new ResponseParser();
    p.start(c.head ?? false);
    const end = p.feed(bytes, 0, bytes.length);
    assertEquals(end, bytes.length - NEXT.length, c.name);
    p.start(false);
    assertEquals([p.feed(bytes, end, bytes.length), p.status, p.bodyBytes], [bytes.length, 201, 2], c.name);
    checked++;
  }
  assert(checked >= 30, `${checked} cases`);
});

Deno.test("framing: the table holds at least 60 cases, of every outcome", () => {
  assert(FRAMING_CASES.length >= 60, `${FRAMING_CASES.length} cases`);
  assert(FRAMING_CASES.filter((c) => c.error).length >= 20);
  assert(FRAMING_CASES.filter((c) => c.forwarder === "refuse").length >= 5);
  assert(FRAMING_CASES.filter((c) => c.untilClose).length >= 3);
  assertEquals(new Set(FRAMING_CASES.map((c) => c.name)).size, FRAMING_CASES.length, "unique names");
});

Deno.test("framing: every case through the real balancer; a refused head is a counted 502, never forwarded", async () => {
  const refused = await throughBalancer(FRAMING_CASES);
  assert(refused >= 40, `${refused} refused`);
});
