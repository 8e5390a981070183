import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";
import { ResponseParser } from "./response_parser.ts";

const enc = (s: string) => new TextEncoder().encode(s);

interface Shape {
  name: string;
  wire: string;
  isHead?: boolean;
  status: number;
  keepAlive: boolean;
  /** Complete only at EOF (body framed by close). */
  atEof?: boolean;
}

/** Every response shape the generator must handle; each is also fed in every possible split. */
const shapes: Shape[] = [
  {
    name: "content-length",
    wire: "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    status: 200,
    keepAlive: true,
  },
  { name: "empty body", wire: "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", status: 200, keepAlive: true },
  {
    name: "chunked with extension and trailer",
    wire: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=1\r\nhello\r\nA\r\n0123456789\r\n0\r\n" +
      "X-Trailer: 1\r\n\r\n",
    status: 200,
    keepAlive: true,
  },
  {
    // Both is a smuggling sign (RFC 9112 6.3 rule 3): framed by chunked, then the connection closes.
    name: "chunked wins over content-length, then closes",
    wire:
      "HTTP/1.1 200 OK\r\nContent-Length: 99\r\nTRANSFER-ENCODING: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
    status: 200,
    keepAlive: false,
  },
  {
    name: "HEAD ignores content-length",
    wire: "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n",
    isHead: true,
    status: 200,
    keepAlive: true,
  },
  {
    name: "204 no body",
    wire: "HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n",
    status: 204,
    keepAlive: true,
  },
  { name: "304 no body", wire: "HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n", status: 304, keepAlive: true },
  {
    name: "connection close",
    wire: "HTTP/1.1 500 Internal Server Error\r\nConnection: close\r\nContent-Length: 2\r\n\r\nno",
    status: 500,
    keepAlive: false,
  },
  {
    name: "HTTP/1.0 keep-alive",
    wire: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx",
    status: 200,
    keepAlive: true,
  },
  {
    name: "HTTP/1.0 default close",
    wire: "HTTP/1.0 404 NF\r\nContent-Length: 1\r\n\r\nx",
    status: 404,
    keepAlive: false,
  },
  {
    name: "100 continue then the response",
    wire: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
    status: 201,
    keepAlive: true,
  },
  {
    name: "no reason phrase, bare LF",
    wire: "HTTP/1.1 429\nContent-Length: 0\n\n",
    status: 429,
    keepAlive: true,
  },
  {
    // RFC 9112 4: 3DIGIT; RFC 9110 15: a code outside 100-599 is read as an error answer, and is final.
    name: "status 000 is final, not interim",
    wire: "HTTP/1.1 000 \r\nContent-Length: 1\r\n\r\nx",
    status: 0,
    keepAlive: true,
  },
  {
    name: "read until close",
    wire: "HTTP/1.1 200 OK\r\n\r\nstreamed body",
    status: 200,
    keepAlive: false,
    atEof: true,
  },
];

/** Feeds `wire` in pieces cut at `cuts`; returns [status, keepAlive, completed]. */
function feedInPieces(shape: Shape, cuts: number[]): [number, boolean, boolean] {
  const bytes = enc(shape.wire);
  const p = new ResponseParser();
  p.start(shape.isHead ?? false);
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    const r = p.feed(bytes, from, to);
    if (r === PARSE_ERROR) throw new Error(`parse error: ${p.error}`);
    if (r !== NEED_MORE) {
      assertEquals(r, bytes.length, `${shape.name}: ends at the last byte`);
      return [p.status, p.keepAlive, true];
    }
    from = to;
  }
  return [p.status, p.keepAlive, p.completesAtEof()];
}

for (const shape of shapes) {
  Deno.test(`parser: ${shape.name} (whole, and split at every byte)`, () => {
    assertEquals(feedInPieces(shape, []), [shape.status, shape.keepAlive, true]);
    const n = enc(shape.wire).length;
    for (let cut = 1; cut < n; cut++) {
      assertEquals(feedInPieces(shape, [cut]), [shape.status, shape.keepAlive, true], `cut at ${cut}`);
    }
    const everyByte = Array.from({ length: n - 1 }, (_, k) => k + 1);
    assertEquals(feedInPieces(shape, everyByte), [shape.status, shape.keepAlive, true]);
  });
}

Deno.test("parser: pipelined responses in one buffer return each end offset", () => {
  const a = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
  const b = "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n";
  const bytes = enc(a + b);
  const p = new ResponseParser();
  p.start(false);
  const end1 = p.feed(bytes, 0, bytes.length);
  assertEquals([end1, p.status], [enc(a).length, 200]);
  p.start(false);
  assertEquals([p.feed(bytes, end1, bytes.length), p.status], [bytes.length, 404]);
});

Deno.test("parser: rejects garbage and bad chunk sizes", () => {
  const p = new ResponseParser();
  p.start(false);
  assertEquals(p.feed(enc("SSH-2.0-OpenSSH\r\n"), 0, 17), PARSE_ERROR);
  assertEquals(p.error, "bad status line");
  p.start(false);
  const bad = enc("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
  assertEquals(p.feed(bad, 0, bad.length), PARSE_ERROR);
  assertEquals(p.error, "bad chunk size");
  p.start(false);
  const code = enc("HTTP/1.1 2x0 OK\r\n\r\n");
  assertEquals(p.feed(code, 0, code.length), PARSE_ERROR);
});

Deno.test("parser: a truncated Content-Length body does not complete at EOF", () => {
  const p = new ResponseParser();
  p.start(false);
  const bytes = enc("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc");
  assertEquals(p.feed(bytes, 0, bytes.length), NEED_MORE);
  assertEquals(p.started, true);
  assertEquals(p.completesAtEof(), false);
});

Deno.test("the parser notes a Set-Cookie field of the final head only, in any case and any split", () => {
  const cases: Array<[string, boolean]> = [
    ["HTTP/1.1 200 OK\r\nServer: x\r\nSet-Cookie: a=b\r\nContent-Length: 0\r\n\r\n", true],
    ["HTTP/1.1 200 OK\nSET-COOKIE: a=b\ncontent-length: 0\n\n", true],
    [
      "HTTP/1.1 200 OK\r\nSet-Cookies: a\r\nX-Set-Cookie: a\r\nServer: set-cookie: a\r\n" +
      "Content-Length: 15\r\n\r\nSet-Cookie: a=b",
      false,
    ],
    ["HTTP/1.1 103 Early Hints\r\nSet-Cookie: a=b\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", false],
    ["HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 204 No Content\r\nset-cookie: a\r\n\r\n", true],
    ["\r\n\r\nHTTP/1.1 200 OK\r\nSet-Cookie: a=b\r\nContent-Length: 0\r\n\r\n", true],
    ["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nSet-Cookie: a=b\r\n\r\n", false],
  ];
  for (const [wire, found] of cases) {
    const bytes = enc(wire);
    for (let cut = 1; cut <= bytes.length; cut++) {
      const parser = new ResponseParser();
      parser.start();
      const first = parser.feed(bytes, 0, cut);
      const end = first === NEED_MORE ? parser.feed(bytes, cut, bytes.length) : first;
      assertEquals([end, parser.setCookie], [bytes.length, found], `${JSON.stringify(wire)} cut at ${cut}`);
    }
  }
});
