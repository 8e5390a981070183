/**
 * @module
 * The review table (tests/framing_review_cases.ts), written apart from the first one, through both
 * readers of HTTP/1.1 responses (tests/framing_harness.ts): each case whole, split at every byte and byte
 * by byte, all runs concluding alike; responses followed by unrequested bytes end exactly where their
 * framing says; and every case once through the real balancer.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { NEED_MORE } from "../http1/message_framer.ts";
import { ResponseParser } from "../runner/http/h1/response_parser.ts";
import { REVIEW_CASES } from "./framing_review_cases.ts";
import { EXTRA_BYTES } from "./framing_review_eof.ts";
import { checkCase, latin1, throughBalancer } from "./framing_harness.ts";

for (const c of REVIEW_CASES) {
  Deno.test(`framing review: ${c.name} [RFC ${c.rfc}]`, () => checkCase(c));
}

Deno.test("framing review: the table holds 80+ cases, each naming its RFC section", () => {
  assert(REVIEW_CASES.length >= 80, `${REVIEW_CASES.length} cases`);
  assert(REVIEW_CASES.every((c) => c.rfc !== undefined && c.rfc.length > 0));
  assert(REVIEW_CASES.filter((c) => c.error).length >= 40);
  assert(REVIEW_CASES.filter((c) => c.incomplete).length >= 15);
  assertEquals(new Set(REVIEW_CASES.map((c) => c.name)).size, REVIEW_CASES.length, "unique names");
});

Deno.test("framing review: a response followed by bytes nobody asked for ends where its framing says", () => {
  for (const c of EXTRA_BYTES) {
    const bytes = latin1(c.wire);
    for (let cut = 1; cut <= bytes.length; cut++) {
      const p = new ResponseParser();
      p.start(c.head ?? false);
      let end = p.feed(bytes, 0, cut);
      if (end === NEED_MORE) end = p.feed(bytes, cut, bytes.length);
      assertEquals(end, c.end, `${c.name}, split at ${cut}`);
    }
  }
});

Deno.test("framing review: every case through the real balancer; a refused head is a counted 502", async () => {
  const refused = await throughBalancer(REVIEW_CASES);
  assert(refused >= 40, `${refused} refused`);
});
