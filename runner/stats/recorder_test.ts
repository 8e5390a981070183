import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { decodeHistogram } from "../../results/histogram.ts";
import { IntervalRecorder } from "./recorder.ts";
import { ERROR_KINDS, type IntervalSample } from "./sample.ts";
import { OTHER_MESSAGES } from "../../results/schema/keys.ts";

// Time is injected: origin at t = 1000 ms, 100 ms intervals; nothing in these tests sleeps.
const ORIGIN_MS = 1000;
const recorder = (uncorrected = false, maxMessageChars?: number) =>
  new IntervalRecorder({ intervalMs: 100, originMs: ORIGIN_MS, uncorrected, maxMessageChars });
const byIndex = (samples: IntervalSample[]) => new Map(samples.map((s) => [s.index, s]));

Deno.test("a recorder made without an origin takes it once, and counts nothing before it", () => {
  const r = new IntervalRecorder({ intervalMs: 100, originMs: Infinity, uncorrected: false });
  r.recordResponse(1000, 200, 0, 0);
  assertEquals(r.drain(1000, true), []);
  r.setOrigin(ORIGIN_MS);
  throws(() => r.setOrigin(ORIGIN_MS + 1), /already set/);
  r.recordResponse(1050, 200, 0, 0);
  assertEquals(r.drain(1100, false).map((s) => s.requests), [1]);
});

Deno.test("events land in the interval of their own timestamp, not of the drain", () => {
  const r = recorder();
  r.recordResponse(1000, 200, 0, 0); // first instant of interval 0, sent then
  r.recordResponse(1099.9, 302, 2000, 2000); // 3xx is success
  r.recordResponse(1100, 404, 3000, 3000); // interval 1
  r.recordResponse(1100.5, 199, 3000, 3000);
  r.addBytesRead(1150, 500);
  r.addBytesWritten(1150, 80);
  r.recordResponse(1350, 503, 4000, 4000); // interval 3; interval 2 stays empty
  const samples = byIndex(r.drain(1400, false)); // interval 3 ends exactly at 1400
  assertEquals([...samples.keys()], [0, 1, 3]);
  const [s0, s1, s3] = [samples.get(0)!, samples.get(1)!, samples.get(3)!];
  assertEquals([s0.requests, s0.failedStatus, s0.statusCodes], [2, 0, { "200": 1, "302": 1 }]);
  assertEquals([s1.requests, s1.failedStatus, s1.statusCodes], [2, 2, { "199": 1, "404": 1 }]);
  assertEquals([s1.bytesRead, s1.bytesWritten, s0.bytesRead], [500, 80, 0]);
  assertEquals([s3.requests, s3.failedStatus], [1, 1]);
  // Histograms are reset between intervals: each holds only its own latencies.
  assertEquals(decodeHistogram(s0.histogram).totalCount, 2);
  assertEquals(decodeHistogram(s1.histogram).minNonZeroValue, 3000);
  assertEquals(decodeHistogram(s3.histogram).totalCount, 1);
  assertEquals(r.drain(1400, false), []); // nothing is emitted twice
});

Deno.test("drain leaves the open interval alone unless final, and final adds no empty tail", () => {
  const r = recorder();
  r.inFlight = 3;
  r.recordResponse(1050, 200, 10, 10);
  assertEquals(r.drain(1099, false), []); // interval 0 still open
  r.recordResponse(1120, 200, 10, 10);
  assertEquals(r.drain(1150, false).map((s) => s.index), [0]);
  const final = r.drain(1200, true); // ends on the boundary of interval 2
  assertEquals(final.map((s) => [s.index, s.requests, s.inFlight]), [[1, 1, 3]]);
});

Deno.test("warm-up events before originMs are ignored", () => {
  const r = recorder();
  r.recordResponse(999.9, 200, 100, 100);
  r.recordError(500, "timeout", "timed out");
  r.addBytesRead(900, 1000);
  r.connected(10, 500);
  r.lateSend(999);
  assertEquals(r.drain(999, true), []);
  r.recordResponse(1001, 200, 100, 100);
  const [only, ...rest] = r.drain(1050, true);
  assertEquals(rest, []);
  assertEquals([only.index, only.requests, only.bytesRead, only.connects, only.lateSends], [0, 1, 0, 0, 0]);
  assertEquals([only.errors, only.connectHistogram], [{}, null]);
});

Deno.test("a response or drop after t0 of a send intended before t0 is the warm-up's, not the run's", () => {
  const r = recorder();
  // Intended at 990 ms (warm-up), answered at 1010 ms: a caught-up backlog must not lift achieved req/s.
  r.recordResponse(1010, 200, 20_000, 1_000);
  r.recordResponse(1020, 200, 15_000, 1_000); // intended at 1005 ms: the run's
  r.droppedSend(1030, 995); // the warm-up's drop
  r.droppedSend(1030, 1001);
  const [only] = r.drain(1250, true);
  assertEquals([only.index, only.requests, only.droppedSends], [0, 1, 1]);
});

Deno.test("error messages are bounded per kind by their characters, extras count under (other)", () => {
  const r = recorder(false, 3);
  for (const message of ["a", "b", "c", "d", "e", "a"]) r.recordError(1010, "connect", message);
  r.recordError(1020, "timeout", "slow");
  const [s] = r.drain(1100, false);
  assertEquals(s.errors, { connect: 6, timeout: 1 });
  // 3 characters a kind: "slow" alone is past them.
  assertEquals(s.errorMessages, {
    connect: { a: 2, b: 1, c: 1, [OTHER_MESSAGES]: 2 },
    timeout: { [OTHER_MESSAGES]: 1 },
  });
  assertEquals(s.requests, 0);
  // The map is per interval: the next interval starts with room for new messages.
  r.recordError(1110, "connect", "z");
  assertEquals(r.drain(1200, false)[0].errorMessages, { connect: { z: 1 } });
});

Deno.test("uncorrected latencies are kept only when asked for", () => {
  const off = recorder(false);
  off.recordResponse(1060, 200, 50_000, 2_000);
  const [plain] = off.drain(1100, false);
  assertEquals(plain.uncorrectedHistogram, null);
  assertEquals(decodeHistogram(plain.histogram).minNonZeroValue, 50_000 - (50_000 % 32)); // 3-digit bucket

  const on = recorder(true);
  on.recordResponse(1060, 200, 50_000, 2_000);
  const [both] = on.drain(1100, false);
  assert(decodeHistogram(both.histogram).getValueAtPercentile(50) >= 50_000);
  assertEquals(decodeHistogram(both.uncorrectedHistogram!).getValueAtPercentile(50), 2_000);
});

Deno.test("connections, reconnects and sends are counted with the connect-time histogram", () => {
  const r = recorder();
  r.connections = 2;
  r.connected(1001, 250);
  r.connected(1002, 750);
  r.reconnected(1003);
  r.lateSend(1004);
  r.droppedSend(1005);
  const [s] = r.drain(1100, false);
  assertEquals([s.connects, s.reconnects, s.lateSends, s.droppedSends, s.connections], [2, 1, 1, 1, 2]);
  assertEquals(decodeHistogram(s.connectHistogram!).totalCount, 2);
});

Deno.test("a connect, a read, a write, an answer, a close each mark the heartbeat's time: not stuck", () => {
  const r = recorder();
  const heartbeat = new Float64Array(4);
  r.markProgressIn(heartbeat);
  r.connected(1001, 250);
  assertEquals(heartbeat[0], performance.timeOrigin + 1001);
  // A stream's bytes, answer or none: a worker reading a long stream on a busy core is not stuck.
  r.addBytesRead(1002, 16_384);
  assertEquals(heartbeat[0], performance.timeOrigin + 1002);
  r.addBytesWritten(1003, 64);
  assertEquals([heartbeat[0], heartbeat[2]], [performance.timeOrigin + 1003, 0]);
  r.recordResponse(1004, 200, 1000, 1000);
  assertEquals([heartbeat[0], heartbeat[2]], [performance.timeOrigin + 1004, 1]);
  r.progressed(1005);
  assertEquals(heartbeat[0], performance.timeOrigin + 1005);
});

Deno.test("idle intervals are emitted only while a gauge is non-zero", () => {
  const r = recorder();
  r.recordResponse(1010, 200, 10, 10);
  r.inFlight = 5; // requests stuck at a slow server: nothing completes, but the chart must show them
  const samples = r.drain(1300, false);
  assertEquals(samples.map((s) => [s.index, s.requests, s.inFlight]), [[0, 1, 5], [1, 0, 5], [2, 0, 5]]);
  assertEquals(decodeHistogram(samples[1].histogram).totalCount, 0);
  r.inFlight = 0;
  assertEquals(r.drain(1600, false), []);
});

Deno.test("an event stamped in an already drained interval still counts, in the next open one", () => {
  const r = recorder();
  r.recordResponse(1010, 200, 10, 10);
  assertEquals(r.drain(1200, false).length, 1); // intervals 0 and 1 are closed
  r.recordResponse(1150, 200, 10, 10); // stamped in closed interval 1
  const [late] = r.drain(1300, false);
  assertEquals([late.index, late.requests], [2, 1]);
});

Deno.test("any 3-digit status and a gRPC status count as themselves; out-of-range codes under 0; each failed", () => {
  const r = recorder();
  r.recordResponse(1010, 999, 10, 10);
  r.recordResponse(1010, 600, 10, 10);
  r.recordResponse(1010, 1000, 10, 10);
  r.recordResponse(1010, -1, 10, 10);
  r.recordResponse(1010, 2000, 10, 10);
  r.recordAnswered(1010, 1003, "grpc INVALID_ARGUMENT", "bad name", 10, 10);
  const [s] = r.drain(1100, false);
  assertEquals([s.statusCodes, s.failedStatus, s.requests, s.errors], [
    { "0": 3, "600": 1, "999": 1, "grpc INVALID_ARGUMENT": 1 },
    6,
    6,
    {},
  ]);
  assertEquals(s.errorMessages, { "grpc INVALID_ARGUMENT": { "bad name": 1 } });
});

Deno.test("each interval's sample counts its own errors by kind and its server-bound sends", () => {
  const r = recorder();
  r.recordError(1010, "timeout", "no response");
  r.serverBoundSend(1020);
  r.recordError(1210, "connect", "refused");
  r.recordError(1220, "reset", "reset by peer");
  r.recordError(1230, "connect", "refused");
  const samples = byIndex(r.drain(1300, true));
  assertEquals([...samples.keys()], [0, 2]);
  assertEquals([samples.get(0)!.errors, samples.get(0)!.serverBoundSends], [{ timeout: 1 }, 1]);
  assertEquals([samples.get(2)!.errors, samples.get(2)!.serverBoundSends], [{ connect: 2, reset: 1 }, 0]);
});

Deno.test("responses after the load's end count as drained, among the requests; a stop moves the end earlier", () => {
  const r = recorder();
  r.setLoadEnd(1300);
  r.recordResponse(1250, 200, 1000, 1000); // within the window
  r.setLoadEnd(1280); // a stop
  r.setLoadEnd(1400); // never moves later
  r.recordResponse(1280, 200, 1000, 1000); // at the end: the drain's
  r.recordResponse(1450, 200, 1000, 1000);
  const samples = byIndex(r.drain(1500, true));
  assertEquals([samples.get(2)!.requests, samples.get(2)!.drained], [2, 1]);
  assertEquals([samples.get(4)!.requests, samples.get(4)!.drained], [1, 1]);
});

Deno.test("every error kind of the results format is counted under its own name", () => {
  const r = recorder();
  ERROR_KINDS.forEach((kind, k) => {
    for (let n = 0; n <= k; n++) r.recordError(1010, kind, kind);
  });
  const [sample] = r.drain(1100, true);
  assertEquals(sample.errors, Object.fromEntries(ERROR_KINDS.map((kind, k) => [kind, k + 1])));
});
