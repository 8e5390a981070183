import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Framing } from "../../../http1/body_framing.ts";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { bodyFramer, headFramer, parseHead } from "./conn.ts";

const bytes = (s: string) => new TextEncoder().encode(s);

function request(text: string) {
  const buf = bytes(text);
  const head = headFramer(true);
  const end = parseHead(head, buf, 0, buf.length);
  return {
    end,
    framing: head.framing,
    length: head.contentLength,
    close: !head.keepAlive,
    isHead: head.headMethod,
  };
}

function response(text: string, requestWasHead = false) {
  const buf = bytes(text);
  const head = headFramer(false);
  const end = parseHead(head, buf, 0, buf.length, requestWasHead);
  return {
    end,
    status: head.status,
    framing: head.framing,
    length: head.contentLength,
    close: !head.keepAlive,
  };
}

Deno.test("request heads: framing, HEAD, keep-alive and close", () => {
  const get = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  assertEquals(request(get), {
    end: get.length,
    framing: Framing.None,
    length: 0,
    close: false,
    isHead: false,
  });
  assertEquals(request("GET / HTTP/1.1\r\nHost: x\r\n").end, NEED_MORE);
  const post = 'POST /a HTTP/1.1\r\ncontent-LENGTH: 12\r\n\r\n{"a":1234}\r\n';
  assertEquals(request(post).framing, Framing.Length);
  assertEquals(request(post).length, 12);
  assertEquals(request(post).end, post.indexOf("{"));
  assertEquals(request("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").framing, Framing.Chunked);
  assertEquals(request("HEAD / HTTP/1.1\r\n\r\n").isHead, true);
  assertEquals(request("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n").close, true);
  assertEquals(request("GET / HTTP/1.0\r\n\r\n").close, true, "HTTP/1.0 closes by default");
  assertEquals(request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").close, false);
  assertEquals(
    request("GET / HTTP/1.1\r\nX-Connection: close\r\n\r\n").close,
    false,
    "only the field itself",
  );
});

Deno.test("request heads: ambiguous framing is refused (no request smuggling)", () => {
  for (
    const head of [
      "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
      "POST / HTTP/1.1\r\nContent-Length: 5x\r\n\r\n",
      "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
      "GET /\r\n\r\n",
      "GET / HTTP/1.1\r\nno colon here\r\n\r\n",
    ]
  ) assertEquals(request(head).end, PARSE_ERROR, head);
  assertEquals(request("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n").length, 5);
});

Deno.test("response heads: which answers have a body (RFC 9112 6.3)", () => {
  assertEquals(response("HTTP/1.1 200 OK\r\ncontent-length: 13\r\n\r\n"), {
    end: 39,
    status: 200,
    framing: Framing.Length,
    length: 13,
    close: false,
  });
  assertEquals(response("HTTP/1.1 200 OK\r\ncontent-length: 13\r\n\r\n", true).framing, Framing.None, "HEAD");
  assertEquals(response("HTTP/1.1 204 No Content\r\ncontent-length: 9\r\n\r\n").framing, Framing.None);
  assertEquals(response("HTTP/1.1 304 Not Modified\r\ncontent-length: 9\r\n\r\n").framing, Framing.None);
  assertEquals(response("HTTP/1.1 100 Continue\r\n\r\n").framing, Framing.None);
  assertEquals(response("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n").framing, Framing.Chunked);
  assertEquals(response("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").framing, Framing.Length);
  const untilClose = response("HTTP/1.0 200 OK\r\ncontent-type: text/plain\r\n\r\n");
  assertEquals([untilClose.framing, untilClose.close], [Framing.UntilClose, true]);
  assertEquals(response("HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 2\r\n\r\n").close, true);
  assertEquals(response("HTTP/1.1 2x0 OK\r\n\r\n").end, PARSE_ERROR);
  assertEquals(response("HTTP/1.1 200 OK\r\n").end, NEED_MORE);
});

/**
 * Feeds `text` to the balancer's body framer in pieces of `step` bytes; the absolute end, NEED_MORE or
 * PARSE_ERROR.
 */
function chunkedEnd(text: string, step: number): number {
  const buf = bytes(text);
  const framer = bodyFramer();
  framer.startChunkedBody();
  for (let from = 0; from < buf.length; from += step) {
    const end = framer.feed(buf, from, Math.min(from + step, buf.length));
    if (end === PARSE_ERROR) return PARSE_ERROR;
    if (end !== NEED_MORE) return end;
  }
  return NEED_MORE;
}

Deno.test("chunked bodies: the end is found whatever the read boundaries", () => {
  const body = "5\r\nhello\r\n1a;ext=1\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n\r\n";
  const trailers = "4\r\nwiki\r\n0\r\nExpires: never\r\nX-Sum: 1\r\n\r\n";
  for (const step of [1, 2, 3, 7, 1000]) {
    assertEquals(chunkedEnd(body + "GET /next", step), body.length, `step ${step}`);
    assertEquals(chunkedEnd(trailers + "rest", step), trailers.length, `trailers, step ${step}`);
    assertEquals(chunkedEnd(body.slice(0, -1), step), NEED_MORE);
  }
  assertEquals(chunkedEnd("zz\r\n", 10), PARSE_ERROR);
  assertEquals(chunkedEnd("5\r\nhelloXY0\r\n\r\n", 10), PARSE_ERROR, "data must end with CRLF");
});
