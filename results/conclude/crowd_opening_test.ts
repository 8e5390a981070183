import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { crowdOpening, crowdOpeningText } from "./crowd_opening.ts";
import type { RunResult } from "../schema/results.ts";

/** A `connections` run of `planned` whose 250 ms intervals held `open` connections and `requests` answers. */
function crowd(
  planned: number,
  open: number[],
  requests: number[],
  extra: Partial<RunResult> = {},
): RunResult {
  const intervals = open.map((connections, i) => ({
    startMs: i * 250,
    durationMs: 250,
    connections,
    requests: requests[i],
  }));
  return {
    model: "connections",
    config: { connections: planned },
    intervals,
    ...extra,
  } as unknown as RunResult;
}

Deno.test("a crowd sending from each connect on: open at the end of the first interval holding it all", () => {
  const o = crowdOpening(crowd(10_000, [512, 4096, 9_999, 10_000], [256, 1534, 9000, 11000]))!;
  // 9,999 is 99% of the plan: one connection the server closed and the loop reopens is no gap.
  assertEquals(o, { planned: 10_000, openAtMs: 750, mostOpen: 4096, answeredBefore: 1790 });
  assertEquals(
    crowdOpeningText(o),
    "10,000 connections open at 0.75 s: the intervals before ran a crowd still opening (4,096 at most), " +
      "each connection sending from its connect on",
  );
});

Deno.test("a crowd opened before its first send: the intervals before are its connects", () => {
  const o = crowdOpening(crowd(3000, [1200, 2600, 3000, 3000], [0, 0, 700, 900]))!;
  assertEquals(o.openAtMs, 750);
  assertEquals(
    crowdOpeningText(o),
    "3,000 connections open at 0.75 s: the intervals before are its connects, nothing sent until the whole " +
      "crowd was open",
  );
});

Deno.test("a crowd never all open says how many it held", () => {
  const o = crowdOpening(crowd(5000, [1000, 4872, 4800], [10, 20, 30]))!;
  assertEquals(o, { planned: 5000, openAtMs: null, mostOpen: 4872, answeredBefore: 60 });
  assertEquals(
    crowdOpeningText(o),
    "never all open: at most 4,872 of 5,000 connections, the run measured that smaller crowd",
  );
});

Deno.test("nothing said of a crowd open in its first interval, a small one, steered, per-arrival or open runs", () => {
  assertEquals(crowdOpening(crowd(50, [50, 50], [9, 9])), null);
  assertEquals(crowdOpening(crowd(10, [1, 10], [0, 9])), null);
  assertEquals(crowdOpening(crowd(1000, [5, 1000], [0, 9], { steering: [{}] } as Partial<RunResult>)), null);
  const perArrival = crowd(1000, [5, 1000], [0, 9]);
  assertEquals(
    crowdOpening({ ...perArrival, config: { connections: 1000, connection: "per-arrival" } }),
    null,
  );
  assertEquals(crowdOpening({ ...perArrival, model: "rate" } as RunResult), null);
  // A segment holds its share of the plan.
  const segment = { index: 0, count: 2, startAt: "" };
  assertEquals(crowdOpening(crowd(2000, [400, 1000], [5, 9], { segment }))?.openAtMs, 500);
});
