import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createHistogram, decodeHistogram, encodeHistogram } from "./histogram.ts";
import { addWsParts, type WsParts } from "./ws_totals.ts";

/** A part with `n` of every counter and histograms holding the given times (us). */
function part(
  n: number,
  handshakeUs: number[],
  fanoutUs: number[],
  closeCodes: Record<string, number>,
): WsParts {
  const encode = (valuesUs: number[]) => {
    if (valuesUs.length === 0) return undefined;
    const h = createHistogram();
    for (const v of valuesUs) h.recordValue(v);
    return encodeHistogram(h);
  };
  return {
    handshakes: n,
    handshakeHistogramEncoded: encode(handshakeUs),
    messagesSent: n,
    messagesReceived: 2 * n,
    payloadBytesSent: 10 * n,
    payloadBytesReceived: 20 * n,
    unsolicited: n,
    fanoutHistogramEncoded: encode(fanoutUs),
    pingsSent: n,
    pongsReceived: n,
    closesSent: n,
    closeCodes,
  };
}

Deno.test("addWsParts: counters and close codes summed, histograms added from their encodings", () => {
  const ws = addWsParts([
    part(2, [1000, 3000], [500], { "1000": 2 }),
    part(3, [2000, 4000, 9000], [], { "1000": 1, "1006": 2 }),
  ]);
  assertEquals(
    [ws.handshakes, ws.messagesSent, ws.messagesReceived, ws.payloadBytesSent, ws.payloadBytesReceived],
    [5, 5, 10, 50, 100],
  );
  assertEquals([ws.unsolicited, ws.pingsSent, ws.pongsReceived, ws.closesSent], [5, 5, 5, 5]);
  assertEquals(ws.closeCodes, { "1000": 3, "1006": 2 });
  assertEquals(decodeHistogram(ws.handshakeHistogramEncoded!).totalCount, 5);
  assertEquals(decodeHistogram(ws.fanoutHistogramEncoded!).totalCount, 1);
  ok(
    Math.abs(ws.handshakeMs!.max - 9) < 0.01 && Math.abs(ws.handshakeMs!.min - 1) < 0.01,
    JSON.stringify(ws),
  );
  ok(Math.abs(ws.fanoutMs!.max - 0.5) < 0.001);
});

Deno.test("addWsParts: no times recorded, no summary; a stored summary without its encoding is not guessed", () => {
  const none = addWsParts([part(0, [], [], {})]);
  assertEquals([none.handshakeMs, none.fanoutMs, none.handshakeHistogramEncoded], [null, null, undefined]);
  // An older shard file: its summary but no encoding. Alone it stands; added to another, left out.
  const old = { ...part(1, [], [], {}), handshakeMs: addWsParts([part(1, [7000], [], {})]).handshakeMs };
  ok(addWsParts([old]).handshakeMs !== null);
  assertEquals(addWsParts([old, part(1, [1000], [], {})]).handshakeMs, null);
});
