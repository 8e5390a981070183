import assert from "node:assert/strict";
import { makeRun, WS_NOTHING } from "../../tests/fixtures/make_run.ts";
import { runVerdict } from "./run_verdict.ts";
import { loadlabFlags } from "./judged.ts";
import { wsFlood } from "./ws_flood.ts";
import type { RunResult } from "../schema/results.ts";

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
