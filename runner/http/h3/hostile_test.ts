/**
 * `attack --h3` against a broken HTTP/3 server served here on Deno's QUIC: each failure is counted under its
 * kind with its H3/QPACK name (a field section naming a dynamic entry that does not exist, the server's
 * CONNECTION_CLOSE with H3_EXCESSIVE_LOAD, DATA short of the content-length, no answer within the timeout, a
 * reset stream), never as a response; after a GOAWAY requests go on a new connection; every run ends in
 * bounded time.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { requireProgram, runLoadlab, withTempDir } from "../../../tests/helpers.ts";
import { makeTlsFixtures } from "../../../tests/tls_fixtures.ts";
import {
  FRAME_DATA,
  FRAME_GOAWAY,
  FRAME_HEADERS,
  H3_EXCESSIVE_LOAD,
  writeFrameHeader,
  writeIdFrame,
} from "../../../http3/frames.ts";
import { encodeFieldSection } from "../../../http3/qpack_encoder.ts";

/** What the server does with each request stream once the request is read. */
type Mode = "bad-qpack" | "close" | "short-body" | "silent" | "reset" | "goaway";

function frame(type: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(payload.length + 16);
  const at = writeFrameHeader(out, 0, type, payload.length);
  out.set(payload, at);
  return out.subarray(0, at + payload.length);
}

const ANSWERS: Record<"bad-qpack" | "short-body" | "goaway", Uint8Array> = {
  // Required Insert Count 0, Base 0, then an indexed field line naming dynamic entry 0: none exists.
  "bad-qpack": frame(FRAME_HEADERS, Uint8Array.of(0x00, 0x00, 0x80)),
  "short-body": Uint8Array.from([
    ...frame(FRAME_HEADERS, encodeFieldSection([[":status", "200"], ["content-length", "13"]])),
    ...frame(FRAME_DATA, new Uint8Array(5)),
  ]),
  // A whole answer, after which the control stream says GOAWAY.
  "goaway": Uint8Array.from([
    ...frame(FRAME_HEADERS, encodeFieldSection([[":status", "200"], ["content-length", "2"]])),
    ...frame(FRAME_DATA, Uint8Array.of(0x6f, 0x6b)),
  ]),
};

async function answer(
  conn: Deno.QuicConn,
  stream: Deno.QuicBidirectionalStream,
  mode: Mode,
  control: WritableStreamDefaultWriter<Uint8Array>,
) {
  // Deno's QUIC forgets a receive stream's id once it is read to its end.
  const id = Number(stream.readable.id);
  for await (const _ of stream.readable) { /* the request, to its FIN */ }
  if (mode === "silent") return;
  if (mode === "reset") return stream.writable.abort();
  if (mode === "close") return conn.close({ closeCode: H3_EXCESSIVE_LOAD, reason: "too much" });
  const writer = stream.writable.getWriter();
  await writer.write(ANSWERS[mode]);
  await writer.close();
  if (mode === "goaway") {
    const goaway = new Uint8Array(16);
    await control.write(
      goaway.subarray(0, writeIdFrame(goaway, 0, FRAME_GOAWAY, id + 4)),
    );
  }
}

Deno.test("attack --h3 against a broken server: each failure counted under its kind, in bounded time", async () => {
  if (!requireProgram("openssl")) return;
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    const endpoint = new Deno.QuicEndpoint({ hostname: "127.0.0.1", port: 0 });
    const listener = endpoint.listen({
      alpnProtocols: ["h3"],
      cert: await Deno.readTextFile(tls.serverCert),
      key: await Deno.readTextFile(tls.serverKey),
    });
    let mode: Mode = "bad-qpack";
    const serving = (async () => {
      for await (const incoming of listener) {
        (async () => {
          const conn = await incoming.accept();
          // The server's control stream, kept open: SETTINGS with nothing in it.
          const control = (await conn.createUnidirectionalStream()).getWriter();
          await control.write(Uint8Array.of(0x00, 0x04, 0x00));
          for await (const stream of conn.incomingBidirectionalStreams) {
            answer(conn, stream, mode, control).catch(() => {});
          }
          control.releaseLock();
        })().catch(() => {});
      }
    })().catch(() => {});
    const url = `https://127.0.0.1:${endpoint.addr.port}/`;
    const attack = async (load: string[]) => {
      const t0 = performance.now();
      const r = await runLoadlab(["attack", "--h3", "--cacert", tls.ca, ...load, "--json", "--no-live", url]);
      ok(performance.now() - t0 < 30_000, `${mode}: ${performance.now() - t0} ms`);
      ok(r.stdout.trim() !== "", `${mode}: ${r.stderr}`);
      return JSON.parse(r.stdout.split("\n")[0]);
    };
    try {
      const cases: Array<[Mode, string, RegExp]> = [
        ["bad-qpack", "h3-protocol", /QPACK_DECOMPRESSION_FAILED|bad index/i],
        ["close", "h3-protocol", /the server closed the connection: H3_EXCESSIVE_LOAD \(too much\)/],
        ["short-body", "parse", /content-length/],
        ["silent", "timeout", /no response within 1000 ms/],
        // Deno's QUIC ends a reset stream's reads as if it had finished: counted as cut short.
        ["reset", "closed-early", /the stream ended before the response's HEADERS/],
      ];
      for (const [m, kind, message] of cases) {
        mode = m;
        const r = await attack(["-n", "3", "-c", "1", "--timeout", "1s"]);
        assertEquals([r.requests, r.statusCodes, r.errors], [0, {}, { [kind]: 3 }], m);
        const messages = Object.keys(r.errorMessages[kind]);
        ok(messages.every((text) => message.test(text)), `${m}: ${messages}`);
      }
      // GOAWAY: the requests after it go on a new connection, every one answered.
      mode = "goaway";
      const moved = await attack(["-n", "20", "-c", "1", "--timeout", "2s"]);
      assertEquals([moved.requests, moved.statusCodes, moved.errors], [20, { "200": 20 }, {}]);
      ok(moved.connects >= 2, `${moved.connects} connects`);
      // Unanswered when the load ends: counted by the graceful stop, not as failures.
      mode = "silent";
      const held = await attack(["-c", "2", "--streams", "2", "-d", "1s", "--timeout", "10s"]);
      assertEquals([held.requests, held.errors, held.unfinished], [0, {}, 4]);
    } finally {
      listener.stop();
      endpoint.close();
      await serving;
    }
  });
});
