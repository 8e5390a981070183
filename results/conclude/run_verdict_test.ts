import assert from "node:assert/strict";
import { makeCpuSleepQuick } from "../../tests/fixtures/make_results.ts";
import { makeRun, WS_NOTHING } from "../../tests/fixtures/make_run.ts";
import { runVerdict } from "./run_verdict.ts";
import { measuredSuccessRate } from "./responses.ts";
import { achievedAbove, droppedShare, formatShare, sendFacts } from "./send_counts.ts";
import type { RunResult } from "../schema/results.ts";

const clean = (patch: Partial<RunResult> = {}): RunResult => ({
  ...makeRun({ name: "r", rps: 100, targetRps: 100, dist: { medianMs: 5, sigma: 0.4 }, durationSec: 2 }),
  ...patch,
});

Deno.test("a clean run is ok; each recorded fact flags it, in a fixed order", () => {
  assert.deepEqual(runVerdict(clean()), { ok: true, flags: [], label: "ok" });
  const v = runVerdict(clean({
    generatorBound: true,
    droppedSends: 100,
    errors: { timeout: 2, connect: 1, unfinished: 3, reset: 9, "closed-early": 4 },
    incomplete: true,
    warmupNotReached: true,
  }));
  assert.deepEqual(v.flags.map((f) => f.kind), [
    "generator-bound",
    "dropped",
    "lost",
    "errors",
    "incomplete",
    "warm-up not reached",
  ]);
  // reset and closed-early are the server's answers, not lost requests: failed requests of their own.
  assert.equal(v.flags.find((f) => f.kind === "lost")?.label, "lost 6");
  assert.match(
    v.flags.find((f) => f.kind === "errors")?.label ?? "",
    /^errors [\d.]+% \(reset 9, closed-early 4\)$/,
  );
  assert.equal(runVerdict(clean({ serverBound: true })).label, "server-bound");
});

Deno.test("every error kind but the lost ones and a script's own is a failed request, HTTP/3's too", () => {
  const v = runVerdict(clean({ errors: { quic: 30, "h3-protocol": 5, timeout: 2 } }));
  assert.match(
    v.flags.find((f) => f.kind === "errors")?.label ?? "",
    /^errors [\d.]+% \(quic 30, h3-protocol 5\)$/,
  );
  assert.equal(v.flags.find((f) => f.kind === "lost")?.label, "lost 2");
});

Deno.test("a run loadlab's memory limit ended names memory, the limit's flag, and the script when there is one", () => {
  const memoryCut = { limitMb: 2_048, rssMb: 2_090, workers: 2 };
  const scripted = clean({
    incomplete: true,
    memoryCut,
    unrecordedLatencies: 3,
    config: { script: { path: "/home/me/session.ts" } },
  });
  assert.equal(
    runVerdict(scripted).label,
    "incomplete: loadlab's memory passed 2,048 MB (its limit; --max-memory-mb or maxMemoryMb to change) in " +
      "session.ts: a session script that keeps what each iteration makes grows without bound; latencies of 3 " +
      "answers lost with the workers",
  );
  // A stuck worker before it is named too, behind memory, which ended the run.
  assert.equal(
    runVerdict(clean({ incomplete: true, memoryCut, stuckWorkers: 1 })).label,
    "incomplete: loadlab's memory passed 2,048 MB (its limit; --max-memory-mb or maxMemoryMb to change): the " +
      "load held more than that",
  );
});

Deno.test("a handful of dropped sends is shown but does not flag; over 0.1% does", () => {
  const few = clean({ droppedSends: 0 });
  few.droppedSends = Math.floor(few.requests * 0.0005);
  assert.equal(runVerdict(few).ok, true);
  // The same bound for lost requests: a hard stop's few unfinished requests in a long run are no flag.
  const long = clean({ requests: 100_000, errors: { unfinished: 40 } });
  assert.equal(runVerdict(long).ok, true);
  assert.equal(runVerdict({ ...long, errors: { unfinished: 40, timeout: 200 } }).label, "lost 240");
  const dropped = makeCpuSleepQuick().runs[2];
  assert.equal(runVerdict(dropped).label, "dropped 99.7%");
  const f = sendFacts(dropped);
  assert.deepEqual([f.requestedRps, f.sent, f.dropped], [20000, dropped.requests, 29_839]);
  assert.ok(Math.abs(droppedShare(dropped) - 29_839 / (29_839 + dropped.requests)) < 1e-12);
});

Deno.test("kernel listen-queue drops name a cause of lost requests but never flag a run alone", () => {
  const run = { ...clean(), hostTcp: { listenOverflows: 5, listenDrops: 7 } } as RunResult;
  assert.equal(runVerdict(run).ok, true, "other processes' listeners overflow too");
  const lost = { ...run, errors: { connect: 30 } } as RunResult;
  assert.equal(runVerdict(lost).label, "lost 30 (the host's kernel dropped 7 connects)");
  const none = { ...clean(), hostTcp: { listenOverflows: 0, listenDrops: 0 } } as RunResult;
  assert.equal(runVerdict(none).ok, true);
});

Deno.test("formatShare keeps shares short but never rounds 99.7% up to 100%", () => {
  assert.deepEqual([0, 0.0004, 0.004, 0.93, 0.997, 1].map(formatShare), [
    "0%",
    "0.04%",
    "0.4%",
    "93%",
    "99.7%",
    "100%",
  ]);
});

Deno.test("achieved above requested is labelled only beyond noise", () => {
  assert.equal(achievedAbove(clean({ rps: 101.5, targetRps: 100 })), false);
  assert.equal(achievedAbove(clean({ rps: 105, targetRps: 100 })), true);
  assert.equal(achievedAbove(clean({ rps: 105, targetRps: null })), false);
});

Deno.test("a run steered by hand is flagged with its changes; a replayed schedule is not", () => {
  const run = clean();
  assert.equal(runVerdict(run).label, "ok");
  const steering = [
    { atSec: 1.04, action: "rate" as const, ratePerSec: 400, by: "dashboard" as const },
    { atSec: 2, action: "pause" as const, by: "terminal" as const },
    { atSec: 2.5, action: "resume" as const, by: "terminal" as const },
    { atSec: 3, action: "end-phase" as const, by: "terminal" as const },
  ];
  const steered = runVerdict({ ...run, steering });
  assert.equal(steered.ok, false);
  assert.equal(steered.label, "steered: rate 400/s at 1.0s, pause at 2.0s, resume at 2.5s and 1 more");
  const replayed = runVerdict({ ...run, steering: steering.map((c) => ({ ...c, by: "replay" as const })) });
  assert.equal(replayed.label, "ok");
});

Deno.test("a script whose sessions did WebSocket work of their own measured them; an empty one measured nothing", () => {
  const flow = { name: "ws.js", sessions: 40, completed: 40, failed: 0, sessionMs: null, steps: [] };
  const noRequest = clean({
    requests: 0,
    rps: 0,
    targetRps: null,
    errors: {},
    droppedSends: 0,
    flows: [flow],
  });
  const withWs = { ...noRequest, ws: { ...WS_NOTHING, handshakes: 40, messagesSent: 40 } } as RunResult;
  assert.equal(runVerdict(withWs).label, "ok");
  assert.ok(Number.isNaN(measuredSuccessRate(withWs)), "no request: no success rate");
  assert.equal(runVerdict(noRequest).label, "nothing measured: no request was sent");
  // Every session threw without a request: the script failed, no request went unanswered.
  const threw = {
    ...withWs,
    errors: { script: 40 },
    flows: [{ ...flow, completed: 0, failed: 40 }],
  } as RunResult;
  assert.equal(runVerdict(threw).label, "failed: every session failed, none sent a request (script 40)");
  assert.ok(Number.isNaN(measuredSuccessRate(threw)));
});

Deno.test("a k6/ws script's socket error among answered sessions is a share of their sockets, not silence", () => {
  const flow = { name: "ws.js", sessions: 58, completed: 58, failed: 0, sessionMs: null, steps: [] };
  const answered = clean({
    requests: 0,
    rps: 0,
    targetRps: null,
    errors: { "ws-too-big": 1 },
    droppedSends: 0,
    flows: [flow],
    ws: { ...WS_NOTHING, handshakes: 58, messagesSent: 58, messagesReceived: 57 },
  } as Partial<RunResult>);
  assert.equal(runVerdict(answered).label, "errors 2% (ws-too-big 1)");
  assert.ok(Number.isNaN(measuredSuccessRate(answered)), "no HTTP response: no success rate");
  // Not one message came back: the sockets' errors are all the run got.
  const silent = { ...answered, ws: { ...answered.ws!, messagesReceived: 0 } } as RunResult;
  assert.match(runVerdict(silent).label, /^failed/);
});

Deno.test("gRPC calls answered with a status other than OK: flagged as errors, never failed", () => {
  const half = clean({
    requests: 200,
    errors: {},
    successRate: 0.5,
    statusCodes: { "200": 100, "grpc INVALID_ARGUMENT": 100 },
  });
  assert.equal(runVerdict(half).label, "errors 50% (grpc INVALID_ARGUMENT 100)");
  const none = clean({ requests: 200, errors: {}, successRate: 0, statusCodes: { "grpc UNAVAILABLE": 200 } });
  assert.equal(
    runVerdict(none).label,
    "errors 100% (grpc UNAVAILABLE 200), no success: not one call answered OK (grpc UNAVAILABLE 200)",
  );
});
