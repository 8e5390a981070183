/**
 * On epoll and io_uring a worker's WebSocket connections read into one shared buffer (run.ts), which is
 * safe only while nothing keeps a view of it past the read that filled it. Here a raw server answers
 * each of 8 connections with a JSON message of its own length, written in three pieces a few ms apart
 * (a header cut after its first byte, then half the payload, then the rest), so the connections' reads
 * interleave while each has a frame half read. The `json` match rule parses every answer: a piece of one
 * connection's bytes left in another's message breaks its JSON, and that send then times out. Bounded
 * counts (count model), exact results.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import { answer101, readUpgrade } from "../../../tests/fixtures/ws_upgrade.ts";

const CONNECTIONS = 8;
const SENDS_EACH = 6;
const PIECE_GAP_MS = 3;

/** Connection `i`'s answer: a JSON object whose length is its own (200 + 37 i pad bytes). */
function answerOf(i: number): Uint8Array {
  const payload = new TextEncoder().encode(`{"k":"v","pad":"${"a".repeat(200 + 37 * i)}"}`);
  // Unmasked text frame; payloads here are 126..65535 bytes, so a 16-bit length.
  const frame = new Uint8Array(4 + payload.length);
  frame[0] = 0x81;
  frame[1] = 126;
  frame[2] = payload.length >>> 8;
  frame[3] = payload.length & 0xff;
  frame.set(payload, 4);
  return frame;
}

/** Answers each client frame read with `answer`, in three pieces a few ms apart; counts the payloads sent. */
async function serve(conn: Deno.TcpConn, answer: Uint8Array, sent: { bytes: number }): Promise<void> {
  // Each piece its own segment: Nagle would hold the later ones back until the first is acknowledged.
  conn.setNoDelay(true);
  const buf = new Uint8Array(64 * 1024);
  const pause = () => new Promise((r) => setTimeout(r, PIECE_GAP_MS));
  try {
    const key = await readUpgrade(conn, buf);
    if (key === null) return;
    await conn.write(answer101(key));
    const half = 4 + Math.floor((answer.length - 4) / 2);
    while ((await conn.read(buf)) !== null) {
      await conn.write(answer.subarray(0, 1));
      await pause();
      await conn.write(answer.subarray(1, half));
      await pause();
      sent.bytes += answer.length - 4;
      await conn.write(answer.subarray(half));
    }
  } catch {
    /* the client closed first */
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}

for (const transport of ["epoll", "io_uring"] as const) {
  const blocker = transport === "epoll"
    ? epollBlocker(new URL("http://127.0.0.1/"))
    : uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
  Deno.test({
    name: `ws [${transport}]: messages cut across reads on 8 connections at once arrive whole, each its own`,
    ignore: blocker !== null,
    async fn() {
      const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const served: Promise<void>[] = [];
      const answers: number[] = [];
      const sent = { bytes: 0 };
      const accepting = (async () => {
        try {
          for await (const conn of listener) {
            const i = served.length;
            const answer = answerOf(i);
            answers.push(answer.length - 4);
            served.push(serve(conn, answer, sent));
          }
        } catch { /* closed */ }
      })();
      try {
        const r = await runAttack(parseAttackConfig({
          url: `ws://127.0.0.1:${listener.addr.port}/ws`,
          model: "count",
          connections: CONNECTIONS,
          requests: CONNECTIONS * SENDS_EACH,
          timeoutMs: 2_000,
          transport,
          ws: { match: { kind: "json", field: "k", equals: "v" } },
        } as AttackConfigInput));
        assertEquals(r.errors, {});
        assertEquals(r.requests, CONNECTIONS * SENDS_EACH);
        assertEquals(r.ws?.messagesReceived, CONNECTIONS * SENDS_EACH);
        assertEquals(r.ws?.unsolicited, 0);
        // Every connection's answers, whole: the bytes received are those of the answers sent, each of its
        // connection's own length (a shared count lets a faster connection send more than SENDS_EACH).
        assertEquals(answers.length, CONNECTIONS);
        assertEquals(r.ws?.payloadBytesReceived, sent.bytes);
      } finally {
        listener.close();
        await accepting;
        await Promise.all(served);
      }
    },
  });
}
