/**
 * A kept response (kept_bytes.ts, kept_response.ts) reads every head the response parser accepts as the
 * parser framed it: bare-LF line ends and empty lines before a status line (RFC 9112 2.2), interim 1xx
 * heads before the final one, obs-fold lines joined with a space (RFC 9112 5.2), and a body decoded as
 * chunked only when chunked is the final transfer coding (RFC 9112 6.3). The bytes are fed through the
 * parser and kept as h1/connection.ts keeps them, split at every byte as reads may split them.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { NEED_MORE, PARSE_ERROR } from "../../http1/message_framer.ts";
import { KeptBytes } from "./kept_bytes.ts";
import { KeptResponse } from "./kept_response.ts";
import { ResponseParser } from "./h1/response_parser.ts";

/** Feeds `wire` to a parser in reads of `step` bytes, keeping as h1/connection.ts does; the kept response. */
function keep(wire: string, headOnly: boolean, step: number): KeptResponse {
  const bytes = new TextEncoder().encode(wire);
  const parser = new ResponseParser();
  const kept = new KeptBytes();
  parser.start(false);
  kept.reset();
  for (let from = 0; from < bytes.length; from += step) {
    const to = Math.min(bytes.length, from + step);
    const end = parser.feed(bytes, from, to);
    if (end === PARSE_ERROR) throw new Error(`parse error: ${parser.error}`);
    kept.append(bytes, from, end === NEED_MORE ? to : end, headOnly);
    if (end !== NEED_MORE) break;
  }
  if (!parser.done && !parser.completesAtEof()) throw new Error("the response did not end");
  return new KeptResponse(kept.view().slice());
}

interface Case {
  name: string;
  wire: string;
  status: number;
  header: [string, string[]];
  body: string;
}

const cases: Case[] = [
  {
    name: "bare-LF head",
    wire: "HTTP/1.1 200 OK\nX-Id: 7\nContent-Length: 2\n\nok",
    status: 200,
    header: ["x-id", ["7"]],
    body: "ok",
  },
  {
    name: "empty lines before the status line, a bare-LF interim head, then the final head",
    wire:
      "\r\n\nHTTP/1.1 100 Continue\n\n\r\nHTTP/1.1 201 Created\r\nX-Id: 9\r\nContent-Length: 3\r\n\r\nnew",
    status: 201,
    header: ["x-id", ["9"]],
    body: "new",
  },
  {
    name: "a head whose last line ends in LF and empty line in CRLF",
    wire: "HTTP/1.1 202 Accepted\r\nX-Id: 4\n\r\n",
    status: 202,
    header: ["x-id", ["4"]],
    body: "",
  },
  {
    name: "a status line without a reason phrase",
    wire: "HTTP/1.1 100\r\n\r\nHTTP/1.1 204\r\nX-Id: 5\r\n\r\n",
    status: 204,
    header: ["x-id", ["5"]],
    body: "",
  },
  {
    name: "101 is a final head, not an interim one",
    wire: "HTTP/1.1 103 Early Hints\r\n\r\nHTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\n\r\n",
    status: 101,
    header: ["upgrade", ["x"]],
    body: "",
  },
  {
    name: "obs-fold lines join the field before them with a space",
    wire:
      "HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\n\tc\r\nX-After: 1\r\n http://x\r\nContent-Length: 0\r\n\r\n",
    status: 200,
    header: ["x-long", ["a b c"]],
    body: "",
  },
  {
    name: "a chunked body after a bare-LF head",
    wire: "HTTP/1.1 200 OK\nTransfer-Encoding: gzip,\n chunked\n\n2\r\nok\r\n0\r\n\r\n",
    status: 200,
    header: ["transfer-encoding", ["gzip, chunked"]],
    body: "ok",
  },
  {
    name: "chunked that is not the final coding: the body is read until the close, as it came",
    wire: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, identity\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    status: 200,
    header: ["transfer-encoding", ["chunked, identity"]],
    body: "2\r\nok\r\n0\r\n\r\n",
  },
];

for (const c of cases) {
  Deno.test(`kept response: ${c.name}`, () => {
    const length = new TextEncoder().encode(c.wire).length;
    for (let step = 1; step <= length; step++) {
      const full = keep(c.wire, false, step);
      assertEquals(
        [full.status, full.headers(c.header[0]), full.body],
        [c.status, c.header[1], c.body],
        `step ${step}`,
      );
      const head = keep(c.wire, true, step);
      assertEquals(
        [head.status, head.headers(c.header[0])],
        [c.status, c.header[1]],
        `head only, step ${step}`,
      );
      assertEquals(head.headers("http"), [], "a folded line is no field of its own");
    }
  });
}
