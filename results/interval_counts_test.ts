import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  addCounters,
  addIntervalCounts,
  addIntervalDetail,
  emptyCounters,
  emptyIntervalCounts,
  emptyIntervalDetail,
  successRateOf,
} from "./interval_counts.ts";

Deno.test("counters add field by field; one the added object lacks adds nothing", () => {
  const into = emptyCounters();
  const all = {
    requests: 1,
    failedStatus: 2,
    unjudged: 1,
    bytesRead: 3,
    bytesWritten: 4,
    lateSends: 5,
    serverBoundSends: 6,
    droppedSends: 7,
    connects: 8,
    reconnects: 9,
    drained: 10,
    retried: 11,
    unfinished: 12,
    unrecordedLatencies: 13,
  };
  addCounters(into, all);
  addCounters(into, all);
  addCounters(into, { requests: 10 });
  assertEquals(into, {
    requests: 12,
    failedStatus: 4,
    unjudged: 2,
    bytesRead: 6,
    bytesWritten: 8,
    lateSends: 10,
    serverBoundSends: 12,
    droppedSends: 14,
    connects: 16,
    reconnects: 18,
    drained: 20,
    retried: 22,
    unfinished: 24,
    unrecordedLatencies: 26,
  });
  assertEquals(Object.keys(emptyCounters()), Object.keys(all), "one field order: one object shape");
});

Deno.test("interval counts add counter by counter, status codes by key", () => {
  const into = emptyIntervalCounts();
  const one = { requests: 3, errors: 1, failedStatus: 1, bytesRead: 30, bytesWritten: 9, lateSends: 2 };
  addIntervalCounts(into, { ...one, statusCodes: { "200": 2, "500": 1 } });
  addIntervalCounts(into, { ...one, statusCodes: { "200": 3 } });
  assertEquals(into, {
    requests: 6,
    failedStatus: 2,
    unjudged: 0,
    bytesRead: 60,
    bytesWritten: 18,
    lateSends: 4,
    // Results intervals carry none of these (older files not even server-bound sends): they add nothing.
    serverBoundSends: 0,
    droppedSends: 0,
    connects: 0,
    reconnects: 0,
    drained: 0,
    retried: 0,
    unfinished: 0,
    unrecordedLatencies: 0,
    errors: 2,
    statusCodes: { "200": 5, "500": 1 },
  });
  assertEquals(emptyIntervalCounts().statusCodes, {}, "a fresh object each call");
});

Deno.test("success rate is expected answers over judged attempts, or the given value when nothing was attempted", () => {
  assertEquals(successRateOf({ requests: 8, errors: 2, failedStatus: 3 }, 0), 0.5);
  // Unjudged answers are in neither part; when every answer is unjudged none failed (k6's 0 of 0).
  assertEquals(successRateOf({ requests: 10, errors: 2, failedStatus: 3, unjudged: 2 }, 0), 0.5);
  assertEquals(successRateOf({ requests: 4, errors: 0, failedStatus: 0, unjudged: 4 }, 0), 1);
  assertEquals(successRateOf({ requests: 0, errors: 0, failedStatus: 0 }, Number.NaN), Number.NaN);
});

Deno.test("interval detail sums error kinds and server-bound sends while every interval has them", () => {
  const into = emptyIntervalDetail();
  addIntervalDetail(into, { errorKinds: { timeout: 2 }, serverBoundSends: 3 });
  addIntervalDetail(into, { errorKinds: { timeout: 1, connect: 4 }, serverBoundSends: 0 });
  assertEquals(into, { errorKinds: { timeout: 3, connect: 4 }, serverBoundSends: 3 });
  // An interval of an older file lacks them: the sums would undercount, so they become unknown.
  addIntervalDetail(into, { errorKinds: undefined, serverBoundSends: undefined });
  addIntervalDetail(into, { errorKinds: { reset: 1 }, serverBoundSends: 1 });
  assertEquals(into, { errorKinds: null, serverBoundSends: null });
});
