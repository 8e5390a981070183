import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { parseSegment, parseStartAt, START_AT_PAST_TOLERANCE_MS } from "./segment_args.ts";
import { UsageError } from "./usage_error.ts";

Deno.test("--segment i/N: index from 0, below the count", () => {
  assertEquals(parseSegment("0/4"), { index: 0, count: 4 });
  assertEquals(parseSegment("3/4"), { index: 3, count: 4 });
  assertEquals(parseSegment(undefined), undefined);
  for (const bad of ["4/4", "1/0", "1", "-1/4", "a/b", "1/4/2"]) {
    throws(() => parseSegment(bad), UsageError, bad);
  }
});

/** An instant before the examples, so they are still to come. */
const BEFORE = Date.UTC(2026, 10, 21, 16);

Deno.test("--start-at: RFC 3339 with a zone, to epoch ms", () => {
  assertEquals(parseStartAt("2026-11-21T17:00:00Z", BEFORE), Date.UTC(2026, 10, 21, 17));
  assertEquals(
    parseStartAt("2026-11-21T19:00:00.250+02:00", BEFORE),
    Date.UTC(2026, 10, 21, 17, 0, 0, 250),
  );
  for (const bad of ["2026-11-21T17:00:00", "tomorrow", "1700000000", "2026-13-40T00:00:00Z"]) {
    throws(() => parseStartAt(bad, BEFORE), UsageError, bad);
  }
});

Deno.test("--start-at in the past: within the tolerance kept, beyond it refused naming the flag", () => {
  const at = Date.UTC(2026, 10, 21, 17);
  assertEquals(parseStartAt("2026-11-21T17:00:00Z", at + START_AT_PAST_TOLERANCE_MS), at);
  throws(
    () => parseStartAt("2026-11-21T17:00:00Z", at + START_AT_PAST_TOLERANCE_MS + 1),
    /--start-at 2026-11-21T17:00:00Z: is 1\.0 s in the past .*give a time still to come/,
  );
  throws(() => parseStartAt("2000-01-01T00:00:00Z", at), /is 9822 days in the past/);
});
