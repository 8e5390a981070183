import assert from "node:assert/strict";
import { intervalSeries } from "../../tests/fixtures/interval_series.ts";
import {
  drainedNote,
  latencyRising,
  MIN_HELD_SENDS,
  saturated,
  servedRps,
  servedShortfall,
  serverBoundLabel,
  unfinishedNote,
  verdict,
} from "./served_rate.ts";

const intervals = intervalSeries;

Deno.test("the achieved rate leaves the drain out", () => {
  assert.equal(servedRps(1000, 600, 2), 200);
  assert.equal(servedRps(10, 0, 0), 0);
});

Deno.test("a shortfall needs a requested rate, 10% missing and five responses", () => {
  assert.deepEqual(servedShortfall({ rps: 178, targetRps: 500, durationSec: 2 }), {
    servedRps: 178,
    requestedRps: 500,
  });
  assert.equal(servedShortfall({ rps: 460, targetRps: 500, durationSec: 2 }), null, "within 10%");
  assert.equal(servedShortfall({ rps: 0.5, targetRps: 1, durationSec: 2 }), null, "one missing response");
  assert.equal(servedShortfall({ rps: 100, targetRps: null, durationSec: 2 }), null, "a closed model");
});

Deno.test("latency rising is a climb from the first third to the last, not a warm-up or jitter", () => {
  assert.equal(latencyRising(intervals([94, 243, 407, 567, 743, 895, 1051, 1837])), true);
  assert.equal(latencyRising(intervals([12, 8, 4, 2, 2, 2, 2, 2, 2])), false, "a warm-up falls");
  assert.equal(latencyRising(intervals([0.2, 0.3, 0.5, 0.6, 0.7, 0.8])), false, "under a millisecond");
  assert.equal(latencyRising(intervals([1, 900])), false, "too few intervals to tell");
});

Deno.test("saturated and its label: served short while the queue grew", () => {
  const grew = intervals([94, 243, 407, 567, 743, 895, 1051, 1837]);
  const run = { rps: 178, targetRps: 500, durationSec: 2, intervals: grew };
  assert.equal(saturated(run), true);
  assert.equal(
    saturated({ ...run, intervals: intervals([900, 900, 900, 900]) }),
    false,
    "a slow steady server",
  );
  assert.equal(serverBoundLabel(run), "server-bound: served 178 of 500 req/s");
  assert.equal(serverBoundLabel({ ...run, rps: 499 }), "server-bound");
  assert.equal(drainedNote({ drained: 1388 }), "1,388 drained after the load's end");
  assert.equal(drainedNote({}), "");
});

Deno.test("requests the run's own stop cut are named with its gracefulStop", () => {
  assert.equal(
    unfinishedNote({ unfinished: 250, config: { gracefulStopMs: 0 } }),
    "250 unfinished by gracefulStop (0 s)",
  );
  assert.equal(unfinishedNote({ unfinished: 3, config: {} }), "3 unfinished by gracefulStop");
  assert.equal(unfinishedNote({ config: {} }), "");
});

Deno.test("bound verdict: a handful of late sends in a short run names no cause", () => {
  // One send of 20 let out 6 ms late by a busy scheduler is 5%, yet says nothing about who limited the run.
  assert.deepEqual(verdict(1, 0, 20), { generatorBound: false, serverBound: false, serverBoundSends: 0 });
  assert.deepEqual(verdict(0, MIN_HELD_SENDS - 1, 20).serverBound, false);
  assert.equal(verdict(MIN_HELD_SENDS, 0, 20).generatorBound, true);
  assert.equal(verdict(0, MIN_HELD_SENDS, 20).serverBound, true);
});

Deno.test("bound verdict: above 1% the larger count names the cause; over half late is the generator", () => {
  assert.equal(verdict(50, 900, 10_000).serverBound, true);
  assert.equal(verdict(900, 50, 10_000).generatorBound, true);
  assert.equal(verdict(6_000, 9_000, 10_000).generatorBound, true);
  assert.deepEqual(verdict(50, 60, 100_000), {
    generatorBound: false,
    serverBound: false,
    serverBoundSends: 60,
  });
});
