/**
 * The terminal's WebSocket block: handshakes made before the measured run (the pre-connected pool's) are
 * counted with the others and said apart, the times being the measured ones'.
 */
import { ok } from "node:assert/strict";
import type { RunResult } from "../../results/mod.ts";
import type { WsResult } from "../../results/schema/ws.ts";
import { wsLines } from "./ws.ts";

const ws: WsResult = {
  handshakes: 40,
  handshakeMs: {
    min: 0.2,
    mean: 0.4,
    stdev: 0.1,
    p2_5: 0.2,
    p10: 0.3,
    p25: 0.3,
    p50: 0.4,
    p75: 0.5,
    p90: 0.6,
    p95: 0.7,
    p97_5: 0.8,
    p99: 0.9,
    p999: 1,
    p9999: 1,
    max: 1,
  },
  messagesSent: 160,
  messagesReceived: 160,
  payloadBytesSent: 800,
  payloadBytesReceived: 800,
  unsolicited: 0,
  fanoutMs: null,
  pingsSent: 0,
  pongsReceived: 0,
  closesSent: 40,
  closeCodes: { "1000": 40 },
};
const line = (w: WsResult) =>
  wsLines({ ws: w } as unknown as RunResult, (s) => s).find((l) => l.includes("Handshakes:")) ?? "";

Deno.test("ws block: pre-connected handshakes are counted and said apart from the timed ones", () => {
  const apart = line({ ...ws, preConnectedHandshakes: 4 });
  ok(
    apart.includes("40 (4 before the measured run, pre-connected;") && apart.includes("of the other 36)"),
    apart,
  );
  const none = line({ ...ws, preConnectedHandshakes: 0 });
  ok(none.includes("Handshakes:  40 (p50") && !none.includes("pre-connected"), none);
});
