/**
 * @module
 * Review cases of Content-Length and of responses without a body (HEAD, 204, 304) or without any length
 * (read until the close). Part of the review table (framing_review_cases.ts); the shared wire pieces are in
 * framing_review_wire.ts.
 */
import type { FramingCase } from "./framing_cases.ts";
import { cl5, fails, fine, ok, te } from "./framing_review_wire.ts";

/** Lengths that frame, bodies a status or HEAD leaves out, bodies that run until the close. */
const VALID: FramingCase[] = [
  { name: "r: content-length 5", wire: cl5(""), ...fine(), rfc: "9112 6.3 (6)" },
  { name: "r: content-length 0", wire: `${ok}Content-Length: 0\r\n\r\n`, ...fine(200, 0), rfc: "9110 8.6" },
  {
    name: "r: HEAD answer with a length and no body",
    wire: `${ok}Content-Length: 1234\r\n\r\n`,
    head: true,
    ...fine(200, 0),
    rfc: "9112 6.3 (1), 9110 9.3.2",
  },
  {
    name: "r: HEAD answer saying chunked has no body",
    wire: te,
    head: true,
    ...fine(200, 0),
    rfc: "9112 6.3 (1)",
  },
  {
    name: "r: HEAD answer without any length keeps the connection",
    wire: `${ok}X: y\r\n\r\n`,
    head: true,
    ...fine(200, 0),
    rfc: "9112 6.3 (1)",
  },
  {
    name: "r: HEAD answer with a huge length",
    wire: `${ok}Content-Length: 1099511627776\r\n\r\n`,
    head: true,
    ...fine(200, 0),
    rfc: "9110 8.6",
  },
  {
    name: "r: 204 with a content-length has no body",
    wire: "HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n",
    ...fine(204, 0),
    rfc: "9112 6.3 (1), 9110 15.3.5",
  },
  {
    name: "r: 304 with a content-length has no body",
    wire: "HTTP/1.1 304 Not Modified\r\nContent-Length: 4096\r\n\r\n",
    ...fine(304, 0),
    rfc: "9112 6.3 (1), 9110 15.4.5",
  },
  {
    name: "r: 304 saying chunked has no body",
    wire: "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
    ...fine(304, 0),
    rfc: "9112 6.3 (1)",
  },
  {
    name: "r: no length runs until the close",
    wire: `${ok}Server: x\r\n\r\nsome bytes\r\n\r\nand more`,
    ...fine(200, 22, false),
    untilClose: true,
    rfc: "9112 6.3 (8)",
  },
  {
    name: "r: no length and nothing before the close",
    wire: `${ok}\r\n`,
    ...fine(200, 0, false),
    untilClose: true,
    rfc: "9112 6.3 (8)",
  },
  {
    name: "r: content-length with OWS",
    wire: `${ok}Content-Length: \t5 \t\r\n\r\nhello`,
    ...fine(),
    rfc: "9112 5.1",
  },
  {
    name: "r: content-length with leading zeros",
    wire: `${ok}Content-Length: 0005\r\n\r\nhello`,
    ...fine(),
    rfc: "9110 8.6",
  },
  {
    name: "r: identical content-length list",
    wire: `${ok}Content-Length: 5,5 , 5\r\n\r\nhello`,
    ...fine(),
    rfc: "9110 8.6",
  },
  {
    name: "r: identical content-length on two lines",
    wire: `${ok}Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello`,
    ...fine(),
    rfc: "9110 8.6",
  },
  {
    name: "r: CONTENT-LENGTH in capitals",
    wire: `${ok}CONTENT-LENGTH: 5\r\n\r\nhello`,
    ...fine(),
    rfc: "9110 5.1",
  },
];

/** Content-Length values that are a parse error. */
const MALFORMED: FramingCase[] = [
  {
    name: "r: negative content-length",
    wire: `${ok}Content-Length: -5\r\n\r\nhello`,
    ...fails,
    rfc: "9110 8.6",
  },
  {
    name: "r: plus-signed content-length",
    wire: `${ok}Content-Length: +5\r\n\r\nhello`,
    ...fails,
    rfc: "9110 8.6",
  },
  {
    name: "r: content-length with a unit",
    wire: `${ok}Content-Length: 5 bytes\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: hex content-length",
    wire: `${ok}Content-Length: 0x5\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: fractional content-length",
    wire: `${ok}Content-Length: 5.0\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: empty content-length",
    wire: `${ok}Content-Length: \r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: conflicting content-length list",
    wire: `${ok}Content-Length: 5, 3\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: conflicting content-length lines",
    wire: `${ok}Content-Length: 3\r\nContent-Length: 5\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: content-length of 2^53",
    wire: `${ok}Content-Length: 9007199254740992\r\n\r\nhello`,
    ...fails,
    rfc: "9112 6.3 (5)",
  },
  {
    name: "r: invalid content-length in a 304 is still an error",
    wire: "HTTP/1.1 304 Not Modified\r\nContent-Length: x\r\n\r\n",
    ...fails,
    rfc: "9112 6.3 (5)",
  },
];

export const LENGTH_CASES: FramingCase[] = [...VALID, ...MALFORMED];
