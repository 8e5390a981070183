/**
 * @module
 * The harness of the framing tables (tests/framing_cases.ts, tests/framing_review_cases.ts): one case
 * through both readers of HTTP/1.1 responses, the engine's parser (runner/http/h1/response_parser.ts) and
 * the balancer's framing (targets/balancer/forward/conn.ts, driven the way
 * targets/balancer/forward/exchange.ts and targets/balancer/forward/relay.ts drive it: heads re-parsed from
 * their first byte as reads arrive, interim heads passed on, then the body by Content-Length, chunked or the
 * close), whole, split at every single byte and one byte per read; and every case once through the real
 * balancer, from a scripted upstream to a raw client.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Framing, isInterim } from "../http1/body_framing.ts";
import { NEED_MORE, PARSE_ERROR } from "../http1/message_framer.ts";
import { ResponseParser } from "../runner/http/h1/response_parser.ts";
import { bodyFramer, headFramer, parseHead } from "../targets/balancer/forward/conn.ts";
import { serveBalancer } from "../targets/balancer/balancer.ts";
import { RawClient, scriptedUpstream } from "./fixtures/balancer_testing.ts";
import type { FramingCase } from "./framing_cases.ts";

/** What a reader concluded about one response. */
export interface Outcome {
  error: boolean;
  completed?: boolean;
  status?: number;
  body?: number;
  keepAlive?: boolean;
}

export const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** What `reader` must conclude about `c`. */
export function expected(c: FramingCase, reader: "engine" | "balancer"): Outcome {
  if (c.error || (reader === "balancer" && c.forwarder === "refuse")) return { error: true };
  if (c.incomplete) return { error: false, completed: false };
  return { error: false, completed: true, status: c.status, body: c.body, keepAlive: c.keepAlive };
}

/** The engine's parser over `bytes` read in pieces ending at `cuts` (then EOF). */
export function engine(c: FramingCase, bytes: Uint8Array, cuts: number[]): Outcome {
  const p = new ResponseParser();
  p.start(c.head ?? false);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const end = p.feed(bytes, from, to);
    if (end === PARSE_ERROR) return { error: true };
    if (end !== NEED_MORE) {
      assertEquals(end, bytes.length, `${c.name}: the response ends at its last byte`);
      return { error: false, completed: true, status: p.status, body: p.bodyBytes, keepAlive: p.keepAlive };
    }
    from = to;
  }
  if (!p.completesAtEof()) return { error: false, completed: false };
  return { error: false, completed: true, status: p.status, body: p.bodyBytes, keepAlive: p.keepAlive };
}

/** The balancer's framing, fed as its upstream connection would be: bytes[0, avail) grows read by read. */
export function balancer(c: FramingCase, bytes: Uint8Array, cuts: number[]): Outcome {
  const reads = [...cuts, bytes.length];
  let read = 0;
  let avail = reads[read++];
  const more = () => read < reads.length ? (avail = reads[read++], true) : false;
  const head = headFramer(false);
  let start = 0;
  for (;;) {
    const end = parseHead(head, bytes, start, avail, c.head ?? false);
    if (end === PARSE_ERROR) return { error: true };
    if (end === NEED_MORE) {
      if (!more()) return { error: false, completed: false };
      continue;
    }
    start = end;
    if (!isInterim(head.status)) break; // else an interim head, passed on
  }
  const done = (body: number) => ({
    error: false,
    completed: true,
    status: head.status,
    body,
    keepAlive: head.keepAlive,
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

/** Runs `c` through both readers whole, split at every byte and byte by byte: all must conclude alike. */
export function checkCase(c: FramingCase): void {
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
}

/** True when the balancer's framing refuses the wire's head (interim heads included): it must answer 502. */
function headRefused(c: FramingCase): boolean {
  const bytes = latin1(c.wire);
  const head = headFramer(false);
  for (let start = 0;;) {
    const end = parseHead(head, bytes, start, bytes.length, c.head ?? false);
    if (end === PARSE_ERROR) return true;
    if (end === NEED_MORE || !isInterim(head.status)) return false;
    start = end;
  }
}

const BAD_GATEWAY = "HTTP/1.1 502 Bad Gateway\r\n";

/**
 * An answer the upstream cut short reaches the client as it came, then the close; or, while nothing but
 * interim heads went out, as a 502 after them. Nothing else is added. Returns 1 for a 502.
 */
async function cutShort(c: FramingCase, client: RawClient): Promise<number> {
  const raw = await client.rest();
  const at = raw.indexOf(BAD_GATEWAY);
  const passed = at >= 0 ? raw.slice(0, at) : raw;
  assert(
    c.wire.startsWith(passed),
    `${c.name}: only the upstream's bytes are passed on: ${JSON.stringify(raw)}`,
  );
  if (at < 0) return 0;
  assert(!/HTTP\/1\.\d [2-9]/.test(passed), `${c.name}: a 502 after a final head was passed on`);
  return 1;
}

/**
 * Every case once through the real balancer (a scripted upstream sends the wire and closes): a refused
 * head is a counted 502 and never forwarded; a broken body is never passed on as complete. Returns how
 * many the balancer refused.
 */
export async function throughBalancer(cases: readonly FramingCase[]): Promise<number> {
  const byPath = new Map(cases.map((c, k) => [`/case/${k}`, c]));
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
        if (c.incomplete) {
          refused += await cutShort(c, client);
          continue;
        }
        let answer = await client.answer(c.head).catch(() => null);
        // Interim answers are passed on as they came; what matters is the final one.
        while (answer !== null && isInterim(answer.status)) {
          answer = await client.answer(c.head).catch(() => null);
        }
        if (headRefused(c)) {
          refused++;
          assertEquals(answer?.status, 502, c.name);
          assert(answer.body.includes("failed: malformed answer head"), `${c.name}: ${answer.body}`);
        } else if (c.error || c.forwarder === "refuse") {
          // Refused in the body: a 502 while nothing of the answer went out, else the connection closes.
          if (answer?.status === 502) refused++;
          else assertEquals(answer, null, `${c.name}: a broken answer is not passed on as complete`);
        } else {
          assertEquals(answer?.status, c.status, c.name);
        }
      } finally {
        client.close();
      }
    }
    assertEquals(server.balancer.badGateways(), [refused]);
    return refused;
  } finally {
    await server.shutdown();
    await upstream.close();
  }
}
