/**
 * @module
 * Review cases of Transfer-Encoding and the chunked coding: codings and their order, chunk sizes,
 * extensions, chunk data, trailers, and Transfer-Encoding together with Content-Length or HTTP/1.0. Part of
 * the review table (framing_review_cases.ts); the shared wire pieces are in framing_review_wire.ts.
 */
import type { FramingCase } from "./framing_cases.ts";
import { fails, fine, hello, ok, te } from "./framing_review_wire.ts";

/** Transfer codings and chunked bodies that frame. */
const VALID: FramingCase[] = [
  { name: "r: chunked", wire: `${te}${hello}`, ...fine(), rfc: "9112 7.1" },
  {
    name: "r: chunked, three chunks",
    wire: `${te}1\r\na\r\n2\r\nbc\r\n3\r\ndef\r\n0\r\n\r\n`,
    ...fine(200, 6),
    rfc: "9112 7.1",
  },
  {
    name: "r: chunk extension with a token value",
    wire: `${te}5;name=value\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.1",
  },
  {
    name: "r: chunk extension with a quoted string holding ; = and an escaped quote",
    wire: `${te}5;a="x;y=\\"z\\"";b\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.1, 9110 5.6.4",
  },
  {
    name: "r: chunk extension with BWS around ; and =",
    wire: `${te}5 ; a = b\r\nhello\r\n0 ;last\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.1",
  },
  {
    name: "r: chunk extension with obs-text in a quoted string",
    wire: `${te}5;a="\xe9t\xe9"\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.1, 9110 5.6.4",
  },
  {
    name: "r: upper-case hex size",
    wire: `${te}B\r\nhello world\r\n0\r\n\r\n`,
    ...fine(200, 11),
    rfc: "9110 5.6.1",
  },
  {
    name: "r: lower-case hex size",
    wire: `${te}b\r\nhello world\r\n0\r\n\r\n`,
    ...fine(200, 11),
    rfc: "9110 5.6.1",
  },
  {
    name: "r: mixed-case hex size",
    wire: `${te}1a\r\n${"x".repeat(26)}\r\n0\r\n\r\n`,
    ...fine(200, 26),
    rfc: "9112 7.1",
  },
  {
    name: "r: size with leading zeros",
    wire: `${te}00000005\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1",
  },
  {
    name: "r: size followed by whitespace (tolerated: BWS)",
    wire: `${te}5\t \r\nhello\r\n0 \r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.1 (BWS)",
  },
  {
    name: "r: trailers",
    wire: `${te}5\r\nhello\r\n0\r\nExpires: never\r\nX-Sum: ab12\r\n\r\n`,
    ...fine(),
    rfc: "9112 7.1.2",
  },
  {
    name: "r: content-length in the trailers is ignored",
    wire: `${te}5\r\nhello\r\n0\r\nContent-Length: 99\r\nConnection: close\r\n\r\n`,
    ...fine(),
    rfc: "9110 6.5.1, 9112 7.1.2",
  },
  { name: "r: empty chunked body", wire: `${te}0\r\n\r\n`, ...fine(200, 0), rfc: "9112 7.1" },
  {
    name: "r: chunk data holding CR and LF bytes",
    wire: `${te}4\r\n\r\n\r\n\r\n0\r\n\r\n`,
    ...fine(200, 4),
    rfc: "9112 7.1",
  },
  {
    name: "r: Transfer-Encoding in mixed case",
    wire: `${ok}Transfer-Encoding: ChUnKeD\r\n\r\n${hello}`,
    ...fine(),
    rfc: "9112 7",
  },
  {
    name: "r: transfer-encoding name in lower case, value with OWS",
    wire: `${ok}transfer-encoding: \t chunked \t\r\n\r\n${hello}`,
    ...fine(),
    rfc: "9112 5.1, 9110 5.6.3",
  },
  {
    name: "r: gzip then chunked",
    wire: `${ok}Transfer-Encoding: gzip ,chunked\r\n\r\n${hello}`,
    ...fine(),
    rfc: "9112 6.1",
  },
  {
    name: "r: chunked not final runs until the close",
    wire: `${ok}Transfer-Encoding: chunked, gzip\r\n\r\n${hello}`,
    ...fine(200, hello.length, false),
    untilClose: true,
    rfc: "9112 6.3 (4)",
  },
  {
    name: "r: identity with a content-length runs until the close",
    wire: `${ok}Transfer-Encoding: identity\r\nContent-Length: 2\r\n\r\nabcdef`,
    ...fine(200, 6, false),
    untilClose: true,
    forwarder: "refuse",
    rfc: "9112 6.3 (3, 4)",
  },
  {
    name: "r: chunked with content-length is read as chunked, then closed",
    wire: `${ok}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n${hello}`,
    ...fine(200, 5, false),
    forwarder: "refuse",
    rfc: "9112 6.3 (3)",
  },
  {
    name: "r: HTTP/1.0 chunked is read as chunked, then closed",
    wire: `HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n${hello}`,
    ...fine(200, 5, false),
    forwarder: "refuse",
    rfc: "9112 6.1",
  },
  {
    name: "r: chunked with a parameter is another coding",
    wire: `${ok}Transfer-Encoding: chunked;x=1\r\n\r\n${hello}`,
    ...fine(200, hello.length, false),
    untilClose: true,
    rfc: "9112 7, 6.3 (4)",
  },
  {
    name: "r: an empty transfer-encoding runs until the close",
    wire: `${ok}Transfer-Encoding:\r\n\r\nabc`,
    ...fine(200, 3, false),
    untilClose: true,
    rfc: "9112 6.3 (4)",
  },
];

/** Transfer codings and chunked bodies that are a parse error. */
const MALFORMED: FramingCase[] = [
  {
    name: "r: chunked listed twice",
    wire: `${ok}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n${hello}`,
    ...fails,
    rfc: "9112 6.1",
  },
  { name: "r: chunk size 0x5", wire: `${te}0x5\r\nhello\r\n0\r\n\r\n`, ...fails, rfc: "9112 7.1" },
  {
    name: "r: chunk size with a leading space",
    wire: `${te} 5\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  { name: "r: negative chunk size", wire: `${te}-5\r\nhello\r\n0\r\n\r\n`, ...fails, rfc: "9112 7.1" },
  { name: "r: chunk size not hex", wire: `${te}g\r\nhello\r\n0\r\n\r\n`, ...fails, rfc: "9112 7.1" },
  { name: "r: empty chunk-size line", wire: `${te}\r\n5\r\nhello\r\n0\r\n\r\n`, ...fails, rfc: "9112 7.1" },
  { name: "r: two sizes on one line", wire: `${te}5 5\r\nhello\r\n0\r\n\r\n`, ...fails, rfc: "9112 7.1" },
  {
    name: "r: chunk size of 2^53",
    wire: `${te}20000000000000\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  {
    name: "r: chunk size of 64 hex digits",
    wire: `${te}${"f".repeat(64)}\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  {
    name: "r: fixed: bare LF ends a chunk-size line",
    wire: `${te}5\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "fixed: 9112 7.1 (chunk = chunk-size [ chunk-ext ] CRLF; 2.2's bare LF is for the head only)",
  },
  {
    name: "r: fixed: bare LF ends a chunk extension",
    wire: `${te}5;a=b\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "fixed: 9112 7.1.1",
  },
  {
    name: "r: fixed: bare LF ends the last chunk",
    wire: `${te}5\r\nhello\r\n0\n\r\n`,
    ...fails,
    rfc: "fixed: 9112 7.1",
  },
  {
    name: "r: fixed: bare LF ends a trailer line",
    wire: `${te}${hello.slice(0, -2)}X: y\n\r\n`,
    ...fails,
    rfc: "fixed: 9112 7.1.2",
  },
  {
    name: "r: fixed: bare LF ends the chunked body",
    wire: `${te}5\r\nhello\r\n0\r\n\n`,
    ...fails,
    rfc: "fixed: 9112 7.1 (chunked-body ends in CRLF)",
  },
  {
    name: "r: bare CR in a chunk extension",
    wire: `${te}5;a="\r"\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 2.2",
  },
  {
    name: "r: NUL in a chunk extension",
    wire: `${te}5;a\0\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1.1",
  },
  {
    name: "r: chunk data longer than its size",
    wire: `${te}3\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  {
    name: "r: chunk data followed by LF only",
    wire: `${te}5\r\nhello\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  {
    name: "r: chunk data followed by nothing but the next size",
    wire: `${te}5\r\nhello0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1",
  },
  {
    name: "r: trailer line without a colon",
    wire: `${te}5\r\nhello\r\n0\r\nnot a field\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1.2",
  },
  {
    name: "r: whitespace line first in the trailers",
    wire: `${te}5\r\nhello\r\n0\r\n X: y\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1.2, 2.2",
  },
  {
    name: "r: no semicolon before a chunk extension",
    wire: `${te}5 ext\r\nhello\r\n0\r\n\r\n`,
    ...fails,
    rfc: "9112 7.1.1",
  },
];

export const CHUNKED_CASES: FramingCase[] = [...VALID, ...MALFORMED];
