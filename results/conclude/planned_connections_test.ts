import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { crowdOpening, crowdOpeningText, rampShortfall } from "./planned_connections.ts";
import type { RunResult } from "../schema/results.ts";

const STAGES = [{ durationMs: 1000, target: 1000 }, { durationMs: 1000, target: 1000 }];

/** A ramping run whose intervals (250 ms) held `open` connections each. */
function ramp(open: number[], extra: Partial<RunResult> = {}): RunResult {
  const intervals = open.map((connections, i) => ({
    startMs: i * 250,
    connections,
    requests: i % 2 ? 0 : 5,
  }));
  return {
    model: "ramping-connections",
    config: { stages: STAGES },
    intervals,
    ...extra,
  } as unknown as RunResult;
}

Deno.test("a ramp holding under half its plan in two intervals or more falls short, the worst one named", () => {
  // Plans at the intervals' starts: 0, 250, 500, 750, 1000, 1000, ... (the last interval is not judged).
  const s = rampShortfall(ramp([10, 200, 240, 300, 600, 1000, 1000, 0]))!;
  // 300 of 750 (40%) is further short than 240 of 500 (48%); its interval had no response.
  assertEquals(s, { atSec: 0.75, open: 300, planned: 750, shortIntervals: 2, silentIntervals: 1 });
});

Deno.test("a ramp that kept up, a single slow interval, a steered run and other models are not flagged", () => {
  assertEquals(rampShortfall(ramp([0, 200, 450, 700, 1000, 1000, 1000, 0])), null);
  assertEquals(rampShortfall(ramp([0, 200, 200, 700, 1000, 1000, 1000, 0])), null);
  const steering = [{ atSec: 0.1, by: "hand", change: "pause" }] as unknown as RunResult["steering"];
  assertEquals(rampShortfall(ramp([0, 10, 10, 10, 10, 10, 10, 0], { steering })), null);
  assertEquals(rampShortfall(ramp([0, 10, 10, 10, 10, 10, 10, 0], { model: "connections" })), null);
  // A segment holds its share of the plan: 1 of 4.
  const segment = { index: 0, count: 4, startAt: "" };
  assertEquals(rampShortfall(ramp([0, 60, 120, 180, 250, 250, 250, 0], { segment })), null);
  assertEquals(rampShortfall(ramp([0, 60, 50, 50, 250, 250, 250, 0], { segment }))?.planned, 187);
});

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

Deno.test("a crowd never all open says how many it held and how many never opened", () => {
  // 4,900 connects of which 10 reopened a connection: 4,890 opened, 110 never did.
  const o = crowdOpening(crowd(5000, [1000, 4872, 4800], [10, 20, 30], { connects: 4900, reconnects: 10 }))!;
  assertEquals(o, { planned: 5000, openAtMs: null, mostOpen: 4872, answeredBefore: 60, neverOpened: 110 });
  assertEquals(
    crowdOpeningText(o),
    "never all open: at most 4,872 of 5,000 connections, the run measured that smaller crowd (110 never opened)",
  );
  // Every connection opened, if not all at once: nothing said of connections never opened.
  const all = crowdOpening(crowd(5000, [1000, 4872, 4800], [10, 20, 30], { connects: 5000, reconnects: 0 }))!;
  assertEquals(
    crowdOpeningText(all),
    "never all open: at most 4,872 of 5,000 connections, the run measured that smaller crowd",
  );
});

Deno.test("a run that closed no interval still says its crowd never opened, and nothing of one that did", () => {
  const o = crowdOpening(crowd(800, [], [], { connects: 512, reconnects: 0 }))!;
  assertEquals(o, { planned: 800, openAtMs: null, mostOpen: 512, answeredBefore: 0, neverOpened: 288 });
  assertEquals(crowdOpening(crowd(800, [], [], { connects: 800, reconnects: 0 })), null);
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
