/**
 * @module
 * The engine's HTTP/2 client against responses that keep or break RFC 9113 section 8 (HTTP semantics),
 * sent by a raw-frame h2c server on loopback, on every transport (malformed heads one by one on Deno's
 * and epoll's reads). A valid response, however unusual (interim 1xx heads, trailers, `te: trailers`, a
 * 304 or a HEAD answer with a content-length and no body, a content-length met over several DATA frames,
 * padding not counted), is never counted as an error. A malformed one (RFC 9113 8.1.1: a request or
 * unknown pseudo-header, a pseudo-header after a regular field or in trailers, a connection-specific
 * field, a 101, a HEADERS after the final head without END_STREAM, a bad name or value, DATA short of or
 * past the content-length) is a stream error: the client resets the stream with PROTOCOL_ERROR and counts
 * `h2-protocol` once, and the connection goes on (no GOAWAY), so other streams on it are answered; every
 * request ends exactly once.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { Buffer } from "node:buffer";
import hpack from "hpack.js";
import { parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { epollBlocker, uringBlocker } from "../transport/choice.ts";
import {
  FLAG,
  FRAME,
  frame,
  FrameReader,
  H2_ERROR,
  PREFACE,
  send,
  settings,
} from "../../../tests/fixtures/h2_frames_testing.ts";
import { HpackDecoder } from "../../../http2/hpack/decoder.ts";
import { closeQuietly } from "../../../system/descriptors.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
const URING_BLOCKER = uringBlocker(new URL("http://127.0.0.1/"), { closedModel: true });
const REQUESTS = 20;
const enc = new TextEncoder();

/** What the server sends for the request on stream `id`: frames, given a header-block encoder. */
type Answer = (id: number, block: (fields: [string, string][]) => Uint8Array, method: string) => Uint8Array[];

/** A header block of literal fields without indexing, new names, raw octets: anything, even broken. */
function raw(fields: [string, string][]): Uint8Array {
  const out: number[] = [];
  for (const [name, value] of fields) {
    const n = [...name].map((c) => c.charCodeAt(0));
    const v = [...value].map((c) => c.charCodeAt(0));
    out.push(0x00, n.length, ...n, v.length, ...v);
  }
  return Uint8Array.from(out);
}

const headers = (id: number, block: Uint8Array, end = false) =>
  frame(FRAME.HEADERS, FLAG.END_HEADERS | (end ? FLAG.END_STREAM : 0), id, block);
const data = (id: number, text: string, end = true) =>
  frame(FRAME.DATA, end ? FLAG.END_STREAM : 0, id, enc.encode(text));

interface Server {
  origin: string;
  goaway: number[];
  rstStream: number[];
  close(): Promise<void>;
}

/** An h2c server answering every request with `answer`'s frames (a fresh hpack.js encoder per connection). */
function serve(answer: Answer): Server {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const loops: Promise<void>[] = [];
  const server: Server = {
    origin: `http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`,
    goaway: [],
    rstStream: [],
    async close() {
      listener.close();
      for (const c of conns) closeQuietly(c);
      await accepting;
      await Promise.all(loops);
    },
  };
  const accepting = (async () => {
    for await (const conn of listener) {
      conns.add(conn);
      loops.push(connection(conn, answer, server).catch(() => {}).finally(() => closeQuietly(conn)));
    }
  })().catch(() => {});
  return server;
}

async function connection(conn: Deno.Conn, answer: Answer, server: Server): Promise<void> {
  const reader = new FrameReader(conn);
  const preface = await reader.bytes(PREFACE.length);
  if (preface === null) return;
  const comp = hpack.compressor.create({ table: { maxSize: 4096 } });
  const block = (fields: [string, string][]) => {
    comp.write(fields.map(([name, value]) => ({ name, value, huffman: true })));
    return new Uint8Array(comp.read());
  };
  const requests = new HpackDecoder();
  await send(conn, frame(FRAME.SETTINGS, 0, 0, settings([0x3, 100])));
  for (let f = await reader.next(); f !== null; f = await reader.next()) {
    if (f.type === FRAME.SETTINGS && !(f.flags & FLAG.ACK)) {
      await send(conn, frame(FRAME.SETTINGS, FLAG.ACK, 0));
    } else if (f.type === FRAME.PING && !(f.flags & FLAG.ACK)) {
      await send(conn, frame(FRAME.PING, FLAG.ACK, 0, f.payload));
    } else if (f.type === FRAME.GOAWAY) server.goaway.push(new DataView(f.payload.buffer).getUint32(4));
    else if (f.type === FRAME.RST_STREAM) server.rstStream.push(new DataView(f.payload.buffer).getUint32(0));
    else if (f.type === FRAME.HEADERS) { // the engine's requests: one frame, END_STREAM (no body)
      let method = "";
      requests.decodeStatus(f.payload, 0, f.payload.length, (n, v) => n === ":method" && (method = v));
      for (const bytes of answer(f.streamId, block, method)) await send(conn, bytes);
    }
  }
}

async function attack(
  server: Server,
  transport: "deno" | "epoll" | "io_uring",
  method = "GET",
): Promise<RunResult> {
  const started = performance.now();
  const r = await runAttack(parseAttackConfig({
    url: `${server.origin}/`,
    requestMix: [{ method, path: "/" }],
    model: "count",
    requests: REQUESTS,
    connections: 1,
    protocol: "h2c",
    streams: 4,
    timeoutMs: 3_000,
    transport,
    // Counts and resets are judged here, not latency: the generator's warm-up (its own tests) would only
    // add time to each case.
    generatorWarmup: false,
  }));
  ok(performance.now() - started < 15_000, "the run ended in bounded time");
  return r;
}

const errorsOf = (r: RunResult) => r.errors as Record<string, number>;
const total = (r: RunResult) => r.requests + Object.values(errorsOf(r)).reduce((a, b) => a + b, 0);

/** Valid answers: each must come out as REQUESTS answered responses, no error, no reset, no GOAWAY. */
const VALID: Array<[string, Answer, string?]> = [
  ["interim 100 and 103 heads before the final one", (id, block) => [
    headers(id, block([[":status", "100"]])),
    headers(id, block([[":status", "103"], ["link", "</a.css>; rel=preload"]])),
    headers(id, block([[":status", "200"], ["content-length", "2"]])),
    data(id, "ok"),
  ]],
  ["trailers after the body, te: trailers in the head", (id, block) => [
    headers(id, block([[":status", "200"], ["te", "trailers"], ["trailer", "x-checksum"]])),
    data(id, "o", false),
    data(id, "k", false),
    headers(id, block([["x-checksum", "abc"], ["x-more", "1"]]), true),
  ]],
  ["trailers right after the head (no DATA)", (id, block) => [
    headers(id, block([[":status", "200"]])),
    headers(id, block([["x-checksum", "abc"]]), true),
  ]],
  ["204 and 304 ended on HEADERS, 304 with a content-length", (id, block) => [
    headers(
      id,
      block(id % 4 === 1 ? [[":status", "204"]] : [[":status", "304"], ["content-length", "1234"]]),
      true,
    ),
  ]],
  ["HEAD answered with a content-length and no body", (id, block, method) => [
    headers(id, block([[":status", method === "HEAD" ? "200" : "599"], ["content-length", "1234"]]), true),
  ], "HEAD"],
  ["values with inner whitespace, obs-text, controls; an empty value", (id) => [
    headers(id, raw([[":status", "200"], ["x-a", "a b\tc"], ["x-b", "caf\u00e9\u0001\u007f"], ["x-c", ""]])),
    data(id, "ok"),
  ]],
];

VALID.push(["content-length twice with one value", (id) => [
  headers(id, raw([[":status", "200"], ["content-length", "2"], ["content-length", "2"]])),
  data(id, "ok"),
]]);
/** A DATA frame padded with `pad` zero octets (its content-length counts the payload only). */
const padded = (id: number, text: string, pad: number, end: boolean) =>
  frame(
    FRAME.DATA,
    FLAG.PADDED | (end ? FLAG.END_STREAM : 0),
    id,
    Uint8Array.from([pad, ...enc.encode(text), ...new Uint8Array(pad)]),
  );
VALID.push([
  "a content-length met by three DATA frames, one padded, an empty one ending the stream",
  (id, block) => [
    headers(id, block([[":status", "200"], ["content-length", "5"]])),
    data(id, "ok", false),
    padded(id, "abc", 7, false),
    data(id, "", true),
  ],
]);
VALID.push(["a :status of 099 or 600 is a final answer, as over HTTP/1.1", (id, block) => [
  headers(id, block([[":status", id % 4 === 1 ? "099" : "600"], ["content-length", "2"]])),
  data(id, "ok"),
]]);
VALID.push(["a content-length met before trailers", (id, block) => [
  headers(id, block([[":status", "200"], ["content-length", "2"]])),
  data(id, "ok", false),
  headers(id, block([["x-checksum", "abc"]]), true),
]]);

/** Malformed answers (RFC 9113 8.1.1): each request a stream error, counted `h2-protocol` once. */
const MALFORMED: Array<[string, Answer]> = [
  ["no :status", (id) => [headers(id, raw([["x-a", "1"]]), true)]],
  [
    ":method in a response",
    (id, block) => [headers(id, block([[":status", "200"], [":method", "GET"]]), true)],
  ],
  [":path in a response", (id) => [headers(id, raw([[":status", "200"], [":path", "/"]]), true)]],
  ["an unknown pseudo-header", (id) => [headers(id, raw([[":status", "200"], [":foo", "x"]]), true)]],
  [":status after a regular field", (id) => [headers(id, raw([["x-a", "1"], [":status", "200"]]), true)]],
  ["two :status", (id) => [headers(id, raw([[":status", "200"], [":status", "200"]]), true)]],
  [
    "connection: keep-alive",
    (id) => [headers(id, raw([[":status", "200"], ["connection", "keep-alive"]]), true)],
  ],
  ["keep-alive", (id) => [headers(id, raw([[":status", "200"], ["keep-alive", "timeout=5"]]), true)]],
  ["proxy-connection", (id) => [headers(id, raw([[":status", "200"], ["proxy-connection", "close"]]), true)]],
  ["transfer-encoding: chunked", (id, block) => [
    headers(id, block([[":status", "200"], ["transfer-encoding", "chunked"]])),
    data(id, "ok"),
  ]],
  ["upgrade", (id) => [headers(id, raw([[":status", "200"], ["upgrade", "h2c"]]), true)]],
  ["te: gzip", (id) => [headers(id, raw([[":status", "200"], ["te", "gzip"]]), true)]],
  ["101 Switching Protocols", (id) => [
    headers(id, raw([[":status", "101"], ["upgrade", "websocket"]])),
    headers(id, raw([[":status", "200"]]), true),
  ]],
  ["101 alone, then a final head", (id) => [
    headers(id, raw([[":status", "101"]])),
    headers(id, raw([[":status", "200"]]), true),
  ]],
  ["a pseudo-header in trailers", (id) => [
    headers(id, raw([[":status", "200"]])),
    data(id, "ok", false),
    headers(id, raw([[":status", "200"], ["x-t", "1"]]), true),
  ]],
  ["a second head after the final one, without END_STREAM", (id) => [
    headers(id, raw([[":status", "200"]])),
    headers(id, raw([["x-t", "1"]])),
    data(id, "ok"),
  ]],
  ["content-length not a number", (id) => [
    headers(id, raw([[":status", "200"], ["content-length", "2x"]])),
    data(id, "ok"),
  ]],
  ["two content-length values", (id) => [
    headers(id, raw([[":status", "200"], ["content-length", "2"], ["content-length", "3"]])),
    data(id, "ok"),
  ]],
  ["DATA short of the content-length", (id, block) => [
    headers(id, block([[":status", "200"], ["content-length", "5"]])),
    data(id, "ok"),
  ]],
  ["DATA past the content-length", (id, block) => [
    headers(id, block([[":status", "200"], ["content-length", "1"]])),
    data(id, "ok"),
  ]],
  ["a content-length, then trailers before the DATA it announced", (id, block) => [
    headers(id, block([[":status", "200"], ["content-length", "2"]])),
    headers(id, block([["x-checksum", "abc"]]), true),
  ]],
  ["a GET answered with a content-length and END_STREAM on the head", (id, block) => [
    headers(id, block([[":status", "200"], ["content-length", "2"]]), true),
  ]],
  ["an upper-case name", (id) => [headers(id, raw([[":status", "200"], ["X-Up", "v"]]), true)]],
  ["a colon inside a name", (id) => [headers(id, raw([[":status", "200"], ["x:y", "v"]]), true)]],
  ["a value with a leading space", (id) => [headers(id, raw([[":status", "200"], ["x-a", " v"]]), true)]],
  ["a value with a trailing tab", (id) => [headers(id, raw([[":status", "200"], ["x-a", "v\t"]]), true)]],
  ["a value with LF", (id) => [headers(id, raw([[":status", "200"], ["x-a", "a\nb"]]), true)]],
];

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  const ignore = (transport === "epoll" && EPOLL_BLOCKER !== null) ||
    (transport === "io_uring" && URING_BLOCKER !== null);
  for (const [name, answer, method] of VALID) {
    Deno.test({
      name: `h2 response rules, valid: ${name} is answered, never an error [${transport}]`,
      ignore,
      async fn() {
        const server = serve(answer);
        try {
          const r = await attack(server, transport, method);
          assertEquals([r.requests, errorsOf(r)], [REQUESTS, {}]);
          assertEquals([server.goaway, server.rstStream], [[], []]);
        } finally {
          await server.close();
        }
      },
    });
  }
  // Which field breaks a head is judged after the frame reader, the same code on every transport; io_uring
  // reads into the shared buffer as epoll does, so its malformed heads are epoll's. The mixed-stream case
  // below checks its stream errors counted, the connection kept.
  for (const [name, answer] of transport === "io_uring" ? [] : MALFORMED) {
    Deno.test({
      name: `h2 response rules, malformed: ${name} is a stream error, counted once [${transport}]`,
      ignore,
      async fn() {
        const server = serve(answer);
        try {
          const r = await attack(server, transport);
          assertEquals(
            [r.requests, errorsOf(r)],
            [0, { "h2-protocol": REQUESTS }],
            JSON.stringify(r.errorMessages),
          );
          // RST_STREAM PROTOCOL_ERROR for each, the connection kept: no GOAWAY, one connection.
          assertEquals(server.goaway, []);
          // The server reads them while the run ends: wait for them, bounded.
          for (let waited = 0; server.rstStream.length < REQUESTS && waited < 10_000; waited += 20) {
            await new Promise((r) => setTimeout(r, 20));
          }
          ok(server.rstStream.length >= REQUESTS, `${server.rstStream.length} resets`);
          ok(server.rstStream.every((code) => code === H2_ERROR.PROTOCOL_ERROR), `${server.rstStream}`);
          assertEquals(r.reconnects, 0);
        } finally {
          await server.close();
        }
      },
    });
  }

  Deno.test({
    name:
      `h2 response rules: a malformed response resets its stream only; the others are answered [${transport}]`,
    ignore,
    async fn() {
      // Every third stream's head names a connection-specific field, with incremental indexing, so the
      // next heads reference the dynamic table: the client must have kept it in step.
      const server = serve((id, block) => {
        const bad = id % 3 === 0;
        const fields: [string, string][] = [[":status", "200"], ["x-id", String(id)], ["server", "rules"]];
        if (bad) fields.push(["connection", "close"]);
        return [headers(id, block(fields)), data(id, "ok")];
      });
      try {
        const r = await attack(server, transport);
        const bad = errorsOf(r)["h2-protocol"] ?? 0;
        ok(bad > 0 && r.requests > 0, `${r.requests} answered, ${JSON.stringify(errorsOf(r))}`);
        assertEquals([total(r), Object.keys(errorsOf(r))], [REQUESTS, ["h2-protocol"]]);
        assertEquals([server.goaway, r.reconnects], [[], 0]);
      } finally {
        await server.close();
      }
    },
  });
}

for (const transport of ["deno", "epoll", "io_uring"] as const) {
  Deno.test({
    name:
      `h2 response rules: HEADERS too short for its PRIORITY or PADDED fields is FRAME_SIZE_ERROR [${transport}]`,
    ignore: (transport === "epoll" && EPOLL_BLOCKER !== null) ||
      (transport === "io_uring" && URING_BLOCKER !== null),
    async fn() {
      // RFC 9113 4.2: a frame too small to contain mandatory frame data. Padding longer than what is
      // left of the frame is a PROTOCOL_ERROR instead (6.2).
      const cases: [number, Uint8Array, number][] = [
        [FLAG.PRIORITY, Uint8Array.of(0, 0, 0), H2_ERROR.FRAME_SIZE_ERROR],
        [FLAG.PADDED, new Uint8Array(0), H2_ERROR.FRAME_SIZE_ERROR],
        [FLAG.PADDED | FLAG.PRIORITY, Uint8Array.of(0, 0, 0, 0, 0), H2_ERROR.FRAME_SIZE_ERROR],
        [FLAG.PADDED, Uint8Array.of(2, 0x88), H2_ERROR.PROTOCOL_ERROR],
      ];
      for (const [flags, payload, code] of cases) {
        const server = serve((
          id,
        ) => [frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM | flags, id, payload)]);
        try {
          const r = await attack(server, transport);
          ok(r.requests === 0 && (errorsOf(r)["h2-protocol"] ?? 0) > 0, JSON.stringify(errorsOf(r)));
          ok(
            server.goaway.length > 0 && server.goaway.every((c) => c === code),
            `flags ${flags}: ${server.goaway}`,
          );
        } finally {
          await server.close();
        }
      }
    },
  });
}

Deno.test("the raw block helper writes literal fields an independent decoder reads back", () => {
  const fields: [string, string][] = [[":status", "200"], ["X-Up", " v\t"]];
  const decomp = hpack.decompressor.create({ table: { maxSize: 4096 } });
  decomp.write(Buffer.from(raw(fields)));
  decomp.execute();
  const got: [string, string][] = [];
  for (let f = decomp.read(); f !== null; f = decomp.read()) got.push([f.name, f.value]);
  assertEquals(got, fields);
});
