/**
 * The engine's HTTP/2 client against scripted raw-frame servers (tests/fixtures/h2_script_server.ts), one
 * frame sequence of RFC 9113 sections 4 to 6 per case: what the server does wrong is counted under its
 * kind and answered on the wire as the RFC says (GOAWAY or RST_STREAM with its error code), and what it may
 * do (padding, PRIORITY, unknown frames and flags, a window made negative by SETTINGS, frames on a stream
 * the client reset or that ended) is never counted as an error. The frame layer is the same on either
 * transport (the hostile server's tests run both), so these run on the default one.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { type AttackConfigInput, parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import {
  FLOW_CONTROL_ERROR,
  FRAME_SIZE_ERROR,
  INTERNAL_ERROR,
  NO_ERROR,
  PROTOCOL_ERROR,
  REFUSED_STREAM,
  STREAM_CLOSED,
} from "../../../http2/frames.ts";
import {
  type H2Script,
  type H2ScriptServer,
  startH2ScriptServer,
} from "../../../tests/fixtures/h2_script_server.ts";
import { FLAG, FRAME, words } from "../../../tests/fixtures/h2_frames_testing.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

const BOUND_MS = 15_000;
const text = new TextEncoder();
/** A PRIORITY payload (and a HEADERS frame's priority fields): depends on stream 0, weight 16. */
const PRIORITY_FIELDS = Uint8Array.of(0, 0, 0, 0, 15);

async function run(
  script: H2Script,
  extra: Partial<AttackConfigInput> = {},
): Promise<{ r: RunResult; got: H2ScriptServer["received"] }> {
  const server = startH2ScriptServer(script);
  const started = performance.now();
  try {
    const config: Record<string, unknown> = {
      url: `${server.origin}/`,
      model: "count",
      requests: 2,
      connections: 1,
      protocol: "h2c",
      streams: 1,
      timeoutMs: 1_000,
      gracefulStopMs: 300,
      // Counts and error kinds are judged here, not latency: the generator's warm-up (tested on its own)
      // would only add time to each case.
      generatorWarmup: false,
      ...extra,
    };
    if (config.model !== "count") delete config.requests;
    const r = await runAttack(parseAttackConfig(config as AttackConfigInput));
    ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    assertEquals(r.protocol, "h2c");
    return { r, got: server.received };
  } finally {
    await server.close();
  }
}

const errors = (r: RunResult) => r.errors as Record<string, number>;
const said = (r: RunResult, got: H2ScriptServer["received"]) =>
  `${r.requests} answered, errors ${JSON.stringify(r.errorMessages)}, GOAWAY ${got.goaway}, RST ${
    JSON.stringify(got.rstStream)
  }`;

/** A connection error: GOAWAY with `code`, counted `h2-protocol`. */
function connectionError(code: number) {
  return (r: RunResult, got: H2ScriptServer["received"]) => {
    ok(got.goaway.includes(code), said(r, got));
    ok((errors(r)["h2-protocol"] ?? 0) > 0, said(r, got));
  };
}

const CASES: Array<[string, H2Script, (r: RunResult, got: H2ScriptServer["received"]) => void]> = [
  [
    "RST_STREAM on an idle stream is a connection error PROTOCOL_ERROR (5.1, 6.4)",
    { answer: async (id, w) => (await w.frame(FRAME.RST_STREAM, 0, 2, words(8)), await w.ok(id)) },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "WINDOW_UPDATE on an idle stream is a connection error PROTOCOL_ERROR (5.1)",
    { answer: async (id, w) => (await w.frame(FRAME.WINDOW_UPDATE, 0, id + 2, words(100)), await w.ok(id)) },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "PRIORITY on stream 0 is a connection error PROTOCOL_ERROR (6.3)",
    { answer: async (id, w) => (await w.frame(FRAME.PRIORITY, 0, 0, PRIORITY_FIELDS), await w.ok(id)) },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "SETTINGS_ENABLE_PUSH 1 from a server is a connection error PROTOCOL_ERROR (6.5.2)",
    { settings: [[0x2, 1]], answer: (id, w) => w.ok(id) },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "DATA after the stream's END_STREAM is a connection error STREAM_CLOSED; the answer counts (5.1)",
    {
      answer: async (
        id,
        w,
      ) => (await w.ok(id), await w.frame(FRAME.DATA, FLAG.END_STREAM, id, text.encode("x"))),
    },
    (r, got) => (connectionError(STREAM_CLOSED)(r, got), ok(r.requests >= 1, said(r, got))),
  ],
  [
    "HEADERS after the stream's END_STREAM is a connection error STREAM_CLOSED (5.1)",
    {
      answer: async (id, w) => {
        await w.ok(id);
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, w.block([["x-late", "1"]]));
      },
    },
    connectionError(STREAM_CLOSED),
  ],
  [
    "PRIORITY of 4 octets is a stream error FRAME_SIZE_ERROR, counted once per request (6.3)",
    {
      answer: async (
        id,
        w,
      ) => (await w.frame(FRAME.PRIORITY, 0, id, Uint8Array.of(0, 0, 0, 1)), await w.ok(id)),
    },
    (r, got) => {
      ok(got.rstStream.some(([, code]) => code === FRAME_SIZE_ERROR), said(r, got));
      assertEquals([r.requests, errors(r), got.goaway], [0, { "h2-protocol": 2 }, []]);
    },
  ],
  [
    "DATA after the server's RST_STREAM is a stream error STREAM_CLOSED, the request counted once (5.1)",
    {
      answer: async (id, w) => {
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS, id, w.block([[":status", "200"]]));
        await w.frame(FRAME.RST_STREAM, 0, id, words(8));
        await w.frame(FRAME.DATA, 0, id, text.encode("x"));
        await w.frame(FRAME.DATA, FLAG.END_STREAM, id, text.encode("y"));
      },
    },
    (r, got) => {
      // One RST_STREAM per stream: after it the stream is reset by us, and what follows is ignored.
      const closed = got.rstStream.filter(([, code]) => code === STREAM_CLOSED).map(([id]) => id);
      assertEquals(closed, [1, 3], said(r, got));
      assertEquals([r.requests, errors(r), got.goaway], [0, { "h2-protocol": 2 }, []]);
    },
  ],
  [
    "HEADERS on a stream the client never opened (odd 101, even 2) is a connection error PROTOCOL_ERROR (5.1.1)",
    {
      answer: async (id, w, n) => {
        const block = w.block([[":status", "200"]]);
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, n === 0 ? 101 : 2, block);
        await w.ok(id);
      },
    },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "a frame inside a header block (HEADERS without END_HEADERS, then PING) is a connection error PROTOCOL_ERROR (6.10)",
    {
      answer: async (id, w) => {
        await w.frame(FRAME.HEADERS, 0, id, w.block([[":status", "200"]]));
        await w.frame(FRAME.PING, 0, 0, new Uint8Array(8));
        await w.frame(FRAME.CONTINUATION, FLAG.END_HEADERS, id, new Uint8Array(0));
      },
    },
    connectionError(PROTOCOL_ERROR),
  ],
  [
    "HEADERS with PRIORITY too short for its 5 octets is a connection error FRAME_SIZE_ERROR (4.2)",
    {
      answer: (id, w) => w.frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.PRIORITY, id, Uint8Array.of(0, 0, 0)),
    },
    connectionError(FRAME_SIZE_ERROR),
  ],
  [
    "DATA flagged PADDED without its pad length octet is a connection error FRAME_SIZE_ERROR (4.2)",
    {
      answer: async (id, w) => {
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS, id, w.block([[":status", "200"]]));
        await w.frame(FRAME.DATA, FLAG.PADDED | FLAG.END_STREAM, id);
      },
    },
    connectionError(FRAME_SIZE_ERROR),
  ],
  [
    "valid: a GOAWAY whose last stream id covers the streams in flight lets them finish, no error (6.8)",
    {
      answer: async (id, w, n) => {
        // Both streams of the connection are in flight (streams: 2): the GOAWAY on the first covers both.
        if (n === 0) await w.frame(FRAME.GOAWAY, 0, 0, words(id + 2, NO_ERROR));
        await w.ok(id);
      },
    },
    (r, got) => assertEquals([r.requests, errors(r), got.goaway, got.rstStream], [4, {}, [], []]),
  ],
  [
    "valid: padding, PRIORITY (also on an idle stream), unknown frames and flags, trailers, then " +
    "WINDOW_UPDATE and RST_STREAM NO_ERROR on the ended stream: no error",
    {
      answer: async (id, w) => {
        await w.frame(0xfa, 0xff, 0, new Uint8Array(4));
        await w.frame(FRAME.PRIORITY, 0, id, PRIORITY_FIELDS);
        await w.frame(FRAME.PRIORITY, 0, id + 2, PRIORITY_FIELDS);
        const block = w.block([[":status", "200"]]);
        const head = Uint8Array.of(3, ...PRIORITY_FIELDS, ...block, 0, 0, 0);
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.PADDED | FLAG.PRIORITY | 0x2, id, head);
        await w.frame(0xfb, 0, id, new Uint8Array(3));
        await w.frame(FRAME.DATA, FLAG.PADDED | 0x40, id, Uint8Array.of(4, 0x6f, 0, 0, 0, 0));
        await w.frame(FRAME.DATA, 0, id, Uint8Array.of(0x6b));
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, w.block([["x-trailer", "1"]]));
        await w.frame(FRAME.WINDOW_UPDATE, 0, id, words(100));
        await w.frame(FRAME.RST_STREAM, 0, id, words(NO_ERROR));
        await w.frame(FRAME.PRIORITY, 0, id, PRIORITY_FIELDS);
      },
    },
    (r, got) => assertEquals([r.requests, errors(r), got.goaway, got.rstStream], [2, {}, [], []]),
  ],
  [
    "a timeout names why no stream opened: the server allows none (SETTINGS_MAX_CONCURRENT_STREAMS 0)",
    { settings: [[0x3, 0]], answer: (id, w) => w.ok(id) },
    (r, got) => timedOut(r, got, "no response within 1000 ms: the server allows no streams"),
  ],
  [
    "a timeout names why no stream opened: the server sent no SETTINGS",
    { settings: null, answer: (id, w) => w.ok(id) },
    (r, got) => timedOut(r, got, "no response within 1000 ms: the server sent no SETTINGS"),
  ],
  [
    "a timeout says what of the response had come: its head and some DATA",
    {
      answer: async (id, w) => {
        await w.frame(FRAME.HEADERS, FLAG.END_HEADERS, id, w.block([[":status", "200"]]));
        await w.frame(FRAME.DATA, 0, id, text.encode("x"));
      },
    },
    (r, got) => timedOut(r, got, "no complete response within 1000 ms: its head and under 1 KiB of its body"),
  ],
  [
    "a close after GOAWAY INTERNAL_ERROR keeps its code in what is counted (6.8)",
    {
      answer: async (
        id,
        w,
      ) => (await w.frame(FRAME.GOAWAY, 0, 0, words(id, INTERNAL_ERROR)), await w.close()),
    },
    (r, got) => {
      const closed = Object.keys(r.errorMessages["closed-early"] ?? {});
      assertEquals(closed, ["the server closed the connection after GOAWAY INTERNAL_ERROR"], said(r, got));
    },
  ],
];

/** Every request timed out, counted with one message that starts with `text`. */
function timedOut(r: RunResult, got: H2ScriptServer["received"], text: string): void {
  const timeouts = Object.keys(r.errorMessages.timeout ?? {});
  ok(r.requests === 0 && timeouts.length === 1 && timeouts[0].startsWith(text), said(r, got));
}

for (const [name, script, check] of CASES) {
  Deno.test(`h2 client vs a scripted server: ${name}`, async () => {
    const { r, got } = await run(script, /GOAWAY/.test(name) ? { streams: 2, requests: 4 } : {});
    check(r, got);
  });
}

const BODY = new Uint8Array(100).fill(0x62);
const POST = { requestMix: [{ method: "POST", path: "/", body: BODY }] } as Partial<AttackConfigInput>;

Deno.test("h2 client: SETTINGS lowering INITIAL_WINDOW_SIZE below what was sent makes the window negative, legal (6.9.2)", async () => {
  const { r, got } = await run({
    settings: [[0x4, 10]],
    early: true,
    answer: async (id, w) => {
      // 10 bytes of the body went in the first window; the new initial size of 0 leaves the stream at -10,
      // and the update of 100 reopens it to 90: the rest of the body.
      await w.frame(FRAME.SETTINGS, 0, 0, Uint8Array.of(0, 4, 0, 0, 0, 0));
      await w.frame(FRAME.WINDOW_UPDATE, 0, id, words(100));
      await w.requestEnded(id);
      await w.ok(id);
    },
  }, POST);
  assertEquals([r.requests, errors(r), got.goaway], [2, {}, []], said(r, got));
});

Deno.test("h2 client: an answer before the request's body ends the stream on both sides (RST_STREAM), so the server's SETTINGS_MAX_CONCURRENT_STREAMS holds (5.1.2, 8.1)", async () => {
  const { r, got } = await run({
    settings: [[0x3, 1], [0x4, 0]], // one stream at a time, and a window that never lets the body go
    early: true,
    answer: (id, w) => w.ok(id),
  }, { ...POST, requests: 3 });
  assertEquals([r.requests, errors(r)], [3, {}], said(r, got));
  ok(got.maxOpen <= 1, `${got.maxOpen} streams open at once on the server (it allows 1)`);
  ok(got.rstStream.every(([, code]) => code === NO_ERROR), said(r, got));
});

Deno.test("h2 client: the late answer of a stream it cancelled (timeout) is ignored, not an error (5.1 closed)", async () => {
  const { r, got } = await run(
    {
      answer: async (id, w, n) => {
        if (n === 0) await new Promise((resolve) => setTimeout(resolve, 900));
        await w.ok(id);
      },
    },
    { model: "connections", requests: undefined, durationMs: 1_500, timeoutMs: 300 } as Partial<
      AttackConfigInput
    >,
  );
  ok(r.requests >= 1, said(r, got));
  assertEquals(
    [Object.keys(errors(r)), got.goaway.filter((c) => c !== NO_ERROR)],
    [["timeout"], []],
    said(r, got),
  );
  ok(got.rstStream.some(([, code]) => code === 8), "the timeout cancelled its stream (RST_STREAM CANCEL)");
});

Deno.test("h2 client: WINDOW_UPDATE overflowing a stream's window is a stream error FLOW_CONTROL_ERROR (6.9.1)", async () => {
  const { r, got } = await run({
    answer: async (id, w) => {
      await w.frame(FRAME.HEADERS, FLAG.END_HEADERS, id, w.block([[":status", "200"]]));
      await w.frame(FRAME.WINDOW_UPDATE, 0, id, words(0x7fff_ffff));
      await w.frame(FRAME.WINDOW_UPDATE, 0, id, words(0x7fff_ffff));
      await w.frame(FRAME.DATA, FLAG.END_STREAM, id, text.encode("ok"));
    },
  });
  ok(got.rstStream.some(([, code]) => code === FLOW_CONTROL_ERROR), said(r, got));
  assertEquals([r.requests, errors(r), got.goaway], [0, { "h2-protocol": 2 }, []]);
});

Deno.test("h2 client: requests waiting for the server's SETTINGS when the connection fails are counted, each once", async () => {
  // An invalid SETTINGS_MAX_FRAME_SIZE ends every connection before any stream opens: the three streams
  // of each were started by the load model and must end as counted errors, not vanish.
  const { r, got } = await run({ settings: [[0x5, 100]], answer: (id, w) => w.ok(id) }, {
    streams: 3,
    requests: 6,
  });
  assertEquals([r.requests, errors(r)], [0, { "h2-protocol": 6 }], said(r, got));
  ok(got.goaway.every((code) => code === PROTOCOL_ERROR) && got.goaway.length > 0, said(r, got));
});

Deno.test("h2 client: a stream a GOAWAY refused goes again on a new connection even when the server closes at once (6.8)", async () => {
  let first = true;
  const { r, got } = await run({
    answer: async (id, w) => {
      if (!first) return w.ok(id);
      first = false;
      // The first connection's first stream: GOAWAY refusing the stream after it, then the close before
      // answering this one (closed early, counted); the refused one was never processed and goes again,
      // counted once as answered, its re-send as retried.
      await w.frame(FRAME.GOAWAY, 0, 0, words(id, NO_ERROR));
      await w.close();
    },
  }, { streams: 2, requests: 2 });
  assertEquals([r.requests, errors(r), r.retried], [1, { "closed-early": 1 }, 1], said(r, got));
});

/** The server's answer to a stream it did no processing of (RFC 9113 8.7). */
const refuse = (id: number, w: Parameters<H2Script["answer"]>[1]) =>
  w.frame(FRAME.RST_STREAM, 0, id, words(REFUSED_STREAM));

Deno.test("h2 client: a stream reset with REFUSED_STREAM goes again, counted once and as retried, under the server's SETTINGS_MAX_CONCURRENT_STREAMS (8.7, 5.1.2)", async () => {
  const { r, got } = await run({
    settings: [[0x3, 1]], // one stream at a time: each request after the first is refused once, then answered
    answer: (id, w, n) => n % 2 === 1 ? refuse(id, w) : w.ok(id),
  }, { streams: 4, requests: 6 });
  assertEquals([r.requests, errors(r), r.retried, got.rstStream], [6, {}, 5, []], said(r, got));
  ok(got.maxOpen <= 1, `${got.maxOpen} streams open at once on the server (it allows 1)`);
});

Deno.test("h2 client: a request re-sent after REFUSED_STREAM has its latency from its first send (the user waited the whole time)", async () => {
  const REFUSED_AFTER_MS = 300;
  const { r, got } = await run({
    answer: async (id, w, n) => {
      if (n > 0) return w.ok(id);
      await new Promise((resolve) => setTimeout(resolve, REFUSED_AFTER_MS));
      await refuse(id, w);
    },
  }, { requests: 1 });
  assertEquals([r.requests, errors(r), r.retried], [1, {}, 1], said(r, got));
  ok(r.latencyMs.min >= REFUSED_AFTER_MS, `latency ${r.latencyMs.min} ms counts the refused send's wait`);
});
