/**
 * @module
 * Limits of the response parser against hostile servers: the head cap (its message names the size), sizes
 * that are not exact numbers, endless chunk extensions and trailers, a 10 MB body held as a count only.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { DEFAULT_MAX_HEADER_BYTES, ResponseParser } from "./response_parser.ts";

const enc = (s: string) => new TextEncoder().encode(s);

/** Feeds `text` in reads of `readBytes`; the parser's result and how many bytes it was given. */
function feedAll(p: ResponseParser, text: string, readBytes = 32 * 1024): { result: number; fed: number } {
  const bytes = enc(text);
  p.start(false);
  for (let from = 0; from < bytes.length; from += readBytes) {
    const to = Math.min(bytes.length, from + readBytes);
    const result = p.feed(bytes, from, to);
    if (result !== NEED_MORE) return { result, fed: to };
  }
  return { result: NEED_MORE, fed: bytes.length };
}

Deno.test("parser: a 1 MiB header line is a parse error naming the cap, read no further than one read past it", () => {
  const p = new ResponseParser();
  const { result, fed } = feedAll(p, `HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(1 << 20)}\r\n\r\n`);
  assertEquals(result, PARSE_ERROR);
  assertEquals(p.error, `response head larger than ${DEFAULT_MAX_HEADER_BYTES} bytes (--max-header-bytes)`);
  assertEquals(fed <= DEFAULT_MAX_HEADER_BYTES + 32 * 1024, true, `fed ${fed}`);
});

Deno.test("parser: the cap counts every header line and interim heads; a head just under it passes", () => {
  const cap = 4096;
  const many = "X-A: b\r\n".repeat(cap / 8);
  assertEquals(feedAll(new ResponseParser(cap), `HTTP/1.1 200 OK\r\n${many}\r\n`).result, PARSE_ERROR);
  const interims = "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n".repeat(cap / 32);
  assertEquals(feedAll(new ResponseParser(cap), interims).result, PARSE_ERROR);
  const fits = `HTTP/1.1 200 OK\r\nX-A: ${"b".repeat(cap - 64)}\r\nContent-Length: 0\r\n\r\n`;
  assertEquals(feedAll(new ResponseParser(cap), fits, 7).result, enc(fits).length);
});

Deno.test("parser: a 10 MB body is counted, not held", () => {
  const p = new ResponseParser();
  const head = enc("HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n");
  p.start(false);
  assertEquals(p.feed(head, 0, head.length), NEED_MORE);
  const chunk = new Uint8Array(65536);
  let left = 10_000_000;
  let result = NEED_MORE;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    result = p.feed(chunk, 0, n);
    left -= n;
  }
  assertEquals([result, p.status], [10_000_000 % 65536, 200]);
});

Deno.test("parser: sizes that are not numbers, or too big to be exact, are framing errors", () => {
  for (
    const [wire, error] of [
      ["HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n", "bad content-length"],
      ["HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n", "bad content-length"],
      ["HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", "bad content-length"],
      ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffff\r\n", "bad chunk size"],
      ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n", "bad chunk size"],
    ]
  ) {
    const p = new ResponseParser();
    assertEquals(feedAll(p, wire).result, PARSE_ERROR, wire);
    assertEquals(p.error, error, wire);
  }
});

Deno.test("parser: an endless chunk extension or trailer section hits the cap", () => {
  const cap = 2048;
  const ext = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;${"x".repeat(cap)}`;
  assertEquals(feedAll(new ResponseParser(cap), ext).result, PARSE_ERROR);
  const trailers = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n${"T: v\r\n".repeat(cap / 4)}`;
  assertEquals(feedAll(new ResponseParser(cap), trailers).result, PARSE_ERROR);
});

Deno.test("parser: interim heads then EOF count as started (closed early), not as a clean end", () => {
  const p = new ResponseParser();
  assertEquals(feedAll(p, "HTTP/1.1 100 Continue\r\n\r\n").result, NEED_MORE);
  assertEquals([p.started, p.completesAtEof()], [true, false]);
});

Deno.test("parser: bytes that do not start with HTTP/ fail at once, without waiting for a line end", () => {
  const p = new ResponseParser();
  p.start(false);
  assertEquals(p.feed(Uint8Array.of(0x01, 0x02, 0x03), 0, 3), PARSE_ERROR);
  assertEquals(p.error, "bad status line");
  p.start(false);
  const http = enc("HTT");
  assertEquals(p.feed(http, 0, 3), NEED_MORE);
  assertEquals(p.feed(enc("X"), 0, 1), PARSE_ERROR);
});
