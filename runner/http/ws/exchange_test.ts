/**
 * One exchange's record: a closed loop's chain of exchanges (the next send made from the read that
 * answered the last) settles with every answer it counted, not only its last exchange's.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { IntervalRecorder } from "../../stats/recorder.ts";
import { WsExchange } from "./exchange.ts";

Deno.test("a chain's next exchange counts on from the answers carried to it; a new exchange from zero", () => {
  const t0 = performance.now();
  const ex = new WsExchange(new IntervalRecorder({ intervalMs: 100, originMs: t0, uncorrected: false }));
  ex.sent(-1, t0 + 1, 7);
  ex.answered(t0 + 2, t0 + 1);
  ex.sent(-1, t0 + 2, 7);
  ex.answered(t0 + 3, t0 + 2);
  const first = ex.end();
  assertEquals(first, 2);
  ex.carry(first);
  ex.sent(-1, t0 + 3, 7);
  ex.answered(t0 + 4, t0 + 3);
  assertEquals(ex.end(), 3, "the chain's answers, all of them");
  ex.sent(-1, t0 + 5, 7);
  assertEquals(ex.end(), 0, "a new exchange starts from none");
  assertEquals(ex.recorder.inFlight, 0);
});
