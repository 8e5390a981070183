/**
 * @module
 * The framing table (tests/framing_cases.ts) through both readers of HTTP/1.1 responses: the engine's
 * parser (runner/http/response_parser.ts) and the balancer's framing (targets/balancer/forward_http1.ts, driven the
 * way forward_exchange.ts and forward_relay.ts drive it: heads re-parsed from their first byte as reads
 * arrive, interim heads passed on, then the body by Content-Length, chunked or the close). Each case runs
 * whole, split at every single byte, and one byte per read; every run must conclude the same: error or
 * not, completed, status, body length, keep-alive. A well-formed case is also run with a second response
 * pipelined after it, which must be read as such (its end is exact). Then every case once through the real
 * balancer, from a scripted upstream to a raw client: what the balancer refuses is a counted 502.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Framing, NEED_MORE, PARSE_ERROR } from "../http1/message_framer.ts";
import { ResponseParser } from "../runner/http/response_parser.ts";
import {
  bodyFramer,
  INCOMPLETE,
  MALFORMED,
  newHead,
  parseResponseHead,
} from "../targets/balancer/forward_http1.ts";
import { serveBalancer } from "../targets/balancer/balancer.ts";
import { RawClient, scriptedUpstream } from "./fixtures/balancer_testing.ts";
import { FRAMING_CASES, type FramingCase } from "./framing_cases.ts";

/** What a reader concluded about one response. */
interface Outcome {
  error: boolean;
  completed?: boolean;
  status?: number;
  body?: number;
  keepAlive?: boolean;
}

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function expected(c: FramingCase, reader: "engine" | "balancer"): Outcome {
  if (c.error || (reader === "balancer" && c.forwarder === "refuse")) return { error: true };
  return { error: false, completed: true, status: c.status, body: c.body, keepAlive: c.keepAlive };
}

/** The engine's parser over `bytes` read in pieces ending at `cuts` (then EOF). */
function engine(c: FramingCase, bytes: Uint8Array, cuts: number[]): Outcome {
  const p = new ResponseParser();
  p.start(c.head ?? false);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const end = p.feed(bytes, from, to);
    if (end === PARSE_ERROR) return { error: true };
    assert(p.bufferedBytes === 0);
    if (end !== NEED_MORE) {
      assertEquals(end, bytes.length, `${c.name}: the response ends at its last byte`);
      return { error: false, completed: true, status: p.status, body: p.bodyBytes, keepAlive: p.keepAlive };
    }
    from = to;
  }
  const completed = p.completesAtEof();
  return { error: false, completed, status: p.status, body: p.bodyBytes, keepAlive: p.keepAlive };
}

/** The balancer's framing, fed as its upstream connection would be: bytes[0, avail) grows read by read. */
function balancer(c: FramingCase, bytes: Uint8Array, cuts: number[]): Outcome {
  const reads = [...cuts, bytes.length];
  let read = 0;
  let avail = reads[read++];
  const more = () => read < reads.length ? (avail = reads[read++], true) : false;
  const head = newHead();
  let start = 0;
  for (;;) {
    const end = parseResponseHead(bytes, start, avail, c.head ?? false, head);
    if (end === MALFORMED) return { error: true };
    if (end === INCOMPLETE) {
      if (!more()) return { error: false, completed: false };
      continue;
    }
    start = end;
    if (head.status >= 200 || head.status === 101) break; // else an interim head, passed on
  }
  const done = (body: number) => ({
    error: false,
    completed: true,
    status: head.status,
    body,
    keepAlive: !head.close,
  });
  if (head.framing === Framing.None) return done(0);
  if (head.framing === Framing.UntilClose) return done(bytes.length - start);
  if (head.framing === Framing.Length) {
    while (avail - start < head.contentLength) if (!more()) return { error: false, completed: false };
    assertEquals(start + head.contentLength, bytes.length, `${c.name}: the body ends at the last byte`);
    return done(head.contentLength);
  }
  const framer = bodyFramer();
  framer.startChunkedBody();
  let pos = start;
  for (;;) {
    const end = framer.feed(bytes, pos, avail);
    if (end === PARSE_ERROR) return { error: true };
    if (end !== NEED_MORE) {
      assertEquals(end, bytes.length, `${c.name}: the chunked body ends at the last byte`);
      return done(framer.bodyBytes);
    }
    pos = avail;
    if (!more()) return { error: false, completed: false };
  }
}

const READERS = { engine, balancer } as const;

for (const c of FRAMING_CASES) {
  Deno.test(`framing: ${c.name} (engine and balancer; whole, split at every byte, byte by byte)`, () => {
    const bytes = latin1(c.wire);
    for (const [name, read] of Object.entries(READERS)) {
      const want = expected(c, name as keyof typeof READERS);
      assertEquals(read(c, bytes, []), want, `${name}, whole`);
      for (let cut = 1; cut < bytes.length; cut++) {
        assertEquals(read(c, bytes, [cut]), want, `${name}, split at ${cut}`);
      }
      const everyByte = Array.from({ length: bytes.length - 1 }, (_, k) => k + 1);
      assertEquals(read(c, bytes, everyByte), want, `${name}, byte by byte`);
    }
  });
}

const NEXT = "HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok";

Deno.test("framing: a second response pipelined after each kept-alive case is read exactly", () => {
  let checked = 0;
  for (const c of FRAMING_CASES) {
    if (c.error || !c.keepAlive || c.untilClose) continue;
    const bytes = latin1(c.wire + NEXT);
    const p = new ResponseParser();
    p.start(c.head ?? false);
    const end = p.feed(bytes, 0, bytes.length);
    assertEquals(end, bytes.length - NEXT.length, c.name);
    p.start(false);
    assertEquals([p.feed(bytes, end, bytes.length), p.status, p.bodyBytes], [bytes.length, 201, 2], c.name);
    checked++;
  }
  assert(checked >= 30, `${checked} cases`);
});

Deno.test("framing: the table holds at least 60 cases, of every outcome", () => {
  assert(FRAMING_CASES.length >= 60, `${FRAMING_CASES.length} cases`);
  assert(FRAMING_CASES.filter((c) => c.error).length >= 20);
  assert(FRAMING_CASES.filter((c) => c.forwarder === "refuse").length >= 5);
  assert(FRAMING_CASES.filter((c) => c.untilClose).length >= 3);
  assertEquals(new Set(FRAMING_CASES.map((c) => c.name)).size, FRAMING_CASES.length, "unique names");
});

/** True when the balancer's framing refuses the wire's head (interim heads included): it must answer 502. */
function headRefused(c: FramingCase): boolean {
  const bytes = latin1(c.wire);
  const head = newHead();
  for (let start = 0;;) {
    const end = parseResponseHead(bytes, start, bytes.length, c.head ?? false, head);
    if (end === MALFORMED) return true;
    if (end === INCOMPLETE || head.status >= 200 || head.status === 101) return false;
    start = end;
  }
}

Deno.test("framing: every case through the real balancer; a refused head is a counted 502, never forwarded", async () => {
  const byPath = new Map(FRAMING_CASES.map((c, k) => [`/case/${k}`, c]));
  const upstream = scriptedUpstream((_, path) => ({ pieces: [byPath.get(path)!.wire], close: true }));
  const server = serveBalancer({
    hostname: "127.0.0.1",
    port: 0,
    upstreams: [upstream.url],
    mode: "round-robin",
  });
  let refused = 0;
  try {
    for (const [path, c] of byPath) {
      const client = await RawClient.open(server.addr.port);
      try {
        await client.send(
          `${c.head ? "HEAD" : "GET"} ${path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n`,
        );
        const answer = await client.answer(c.head).catch(() => null);
        if (headRefused(c)) {
          refused++;
          assertEquals(answer?.status, 502, c.name);
          assert(answer.body.includes("failed: malformed answer head"), `${c.name}: ${answer.body}`);
        } else if (c.error || c.forwarder === "refuse") {
          // Refused in the body: a 502 while nothing of the answer went out, else the connection closes.
          if (answer?.status === 502) refused++;
          else assertEquals(answer, null, `${c.name}: a broken body is not passed on as complete`);
        } else {
          const first = Number(/HTTP\/1\.\d (\d{3})/.exec(c.wire)![1]);
          assertEquals(answer?.status, first, c.name);
        }
      } finally {
        client.close();
      }
    }
    assertEquals(server.balancer.badGateways(), [refused]);
    assert(refused >= 40, `${refused} refused`);
  } finally {
    await server.shutdown();
    await upstream.close();
  }
});
