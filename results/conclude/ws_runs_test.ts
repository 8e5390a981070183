import assert from "node:assert/strict";
import { makeRun, WS_NOTHING } from "../../tests/fixtures/make_run.ts";
import { runVerdict } from "./run_verdict.ts";
import { loadlabFlags } from "./judged.ts";
import { stormFacts, stormShortText, wsFlood } from "./ws_runs.ts";
import type { RunResult } from "../schema/results.ts";

/**
 * A 10 s storm of 5 messages per connection asked at 100 conn/s (`targetRps` 500 msg/s), which opened
 * `opened` connections (4 of them pre-connected) and sent `sent` messages.
 */
function storm(opened: number, sent: number, patch: Partial<RunResult> = {}): RunResult {
  const run = makeRun({
    name: "storm",
    rps: sent / 10,
    targetRps: 500,
    dist: { medianMs: 2, sigma: 0.3 },
    durationSec: 10,
  });
  return {
    ...run,
    url: "ws://127.0.0.1:8080/ws/echo",
    config: { ...run.config, ws: { messagesPerConnection: 5 } },
    ws: {
      ...WS_NOTHING,
      handshakes: opened + 4,
      preConnectedHandshakes: 4,
      messagesSent: sent,
      messagesReceived: sent,
    },
    ...patch,
  };
}

Deno.test("a storm that opened and sent what it was asked is ok: its message rate is not read as connections", () => {
  const run = storm(1000, 5000);
  assert.deepEqual(stormFacts(run), {
    messagesPerConnection: 5,
    requestedPerSec: 100,
    openedPerSec: 100,
    opened: 1000,
    sentPerConnection: 5,
  });
  assert.equal(stormShortText(run), "");
  assert.equal(runVerdict(run).label, "ok");
});

Deno.test("a storm's server-bound flag says what it opened of the connections asked, not messages of connections", () => {
  const run = storm(350, 1750, { serverBound: true });
  assert.equal(runVerdict(run).label, "server-bound: opened 35 of 100 conn/s");
});

Deno.test("a storm that opened short, or sent short on each connection, is flagged even with no bound flag", () => {
  assert.equal(runVerdict(storm(500, 2500)).label, "short storm: opened 50 of 100 conn/s");
  assert.equal(runVerdict(storm(1000, 2000)).label, "short storm: 2.0 of 5 messages each");
  // The generator's flag names who fell short: no second flag.
  assert.equal(runVerdict(storm(500, 2500, { generatorBound: true })).label, "generator-bound");
});

Deno.test("runs that are no open storm have no storm facts", () => {
  const closed = storm(10, 50, { targetRps: null });
  assert.equal(stormFacts(closed), null);
  assert.equal(stormFacts({ ...storm(10, 50), config: {} }), null);
  assert.equal(stormFacts({ ...storm(10, 50), ws: undefined }), null);
});

Deno.test("a hold run is judged by its pings: answered is ok, refused connections flag it, all refused fail it", () => {
  const run = makeRun({
    name: "hold",
    rps: 20,
    targetRps: null,
    dist: { medianMs: 1, sigma: 0.2 },
    durationSec: 10,
  });
  const hold: RunResult = {
    ...run,
    url: "ws://127.0.0.1:8080/ws/echo",
    config: { ...run.config, ws: { pingIntervalMs: 5000 } },
    ws: { ...WS_NOTHING, handshakes: 100, pingsSent: run.requests, pongsReceived: run.requests },
  };
  assert.equal(runVerdict(hold).label, "ok");
  assert.match(
    runVerdict({ ...hold, errors: { "ws-refused": 40 } }).label,
    /^errors [\d.]+% \(ws-refused 40\)$/,
  );
  assert.equal(
    runVerdict({ ...hold, requests: 0, errors: { "ws-refused": 40 } }).label,
    "failed: no response (ws-refused 40)",
  );
});

Deno.test("a storm whose connections outlast the window is flagged: its message rate is a ramp's", () => {
  // Every connection opened and sent its 5, but 40% of the answers came after the window.
  const outlasting = storm(1000, 5000, { requests: 5000, drained: 2000 });
  assert.equal(
    runVerdict(outlasting).label,
    "short storm: 2,000 of 5,000 messages after the 10.00 s window (its connections outlast the run: run it longer)",
  );
  // The window's length, not who was slower, made it a ramp: said beside a bound flag too.
  const bound = runVerdict(storm(1000, 5000, { requests: 5000, drained: 2000, generatorBound: true })).label;
  assert.match(bound, /^generator-bound.*, short storm: 2,000 of 5,000 messages after the 10\.00 s window/);
  // The few a storm always has in flight at its end are no finding.
  assert.equal(runVerdict(storm(1000, 5000, { requests: 5000, drained: 400 })).label, "ok");
  assert.equal(runVerdict(storm(2, 10, { requests: 10, drained: 4 })).label.includes("after the"), false);
});

/** A 10 s WebSocket run that answered `answered` sends amid `unsolicited` messages, under `ws` config. */
function wsRun(answered: number, unsolicited: number, ws: Record<string, unknown> = {}): RunResult {
  const run = makeRun({ name: "ws", rps: answered / 10, dist: { medianMs: 1, sigma: 0.3 }, durationSec: 10 });
  return {
    ...run,
    requests: answered,
    url: "ws://127.0.0.1:8080/ws",
    config: { ...run.config, ws },
    ws: {
      ...WS_NOTHING,
      handshakes: 2,
      messagesSent: answered,
      messagesReceived: answered + unsolicited,
      unsolicited,
    },
  };
}

Deno.test("a flood that answered every send under the echo rule is flagged, naming --ws-match", () => {
  // The measured case: 27,000 sends "answered" amid 34 million unsolicited messages.
  const run = wsRun(27_000, 34_000_000);
  assert.equal(run.requests, 27_000);
  const verdict = runVerdict(run);
  assert.equal(verdict.ok, false);
  assert.equal(
    verdict.label,
    "flooded: 1,259 unsolicited messages per answer (the echo rule takes any message: --ws-match is probably wrong)",
  );
  // Its round trips time nothing of the target's: no comparison or expectation is judged on them.
  assert.deepEqual(loadlabFlags([run]), [verdict.label]);
  assert.match(
    runVerdict(wsRun(27_000, 34_000_000, { match: { kind: "nth", n: 3 } })).label,
    /the nth:3 rule/,
  );
});

Deno.test("no flood flag: a busy room, a json rule, hold's pings, a short run, an HTTP run", () => {
  // A 50-member room: each member gets 49 broadcasts per answer.
  assert.equal(wsFlood(wsRun(100_000, 4_900_000)), null);
  assert.equal(runVerdict(wsRun(100_000, 4_900_000)).label, "ok");
  // A json rule checks what it takes: a flood cannot answer for it.
  assert.equal(wsFlood(wsRun(27_000, 34_000_000, { match: { kind: "json", field: "id", equals: 1 } })), null);
  assert.equal(wsFlood(wsRun(27_000, 34_000_000, { pingIntervalMs: 5_000 })), null);
  // Two answers among 300 messages: a handful says nothing.
  assert.equal(wsFlood(wsRun(2, 300)), null);
  assert.equal(wsFlood({ ...wsRun(27_000, 34_000_000), url: "http://127.0.0.1:8080/" }), null);
});
