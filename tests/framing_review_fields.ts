/**
 * @module
 * Review cases of field lines: names (tokens, matched exactly), values (allowed bytes, obs-fold, bare LF
 * line ends) and the Connection field with the version deciding whether the connection stays open. Part of
 * the review table (framing_review_cases.ts); the shared wire pieces are in framing_review_wire.ts.
 */
import type { FramingCase } from "./framing_cases.ts";
import { cl5, fails, fine, hello, ok } from "./framing_review_wire.ts";

/** Field lines that frame, and what Connection and the version say about keeping the connection. */
const VALID: FramingCase[] = [
  {
    name: "r: HTTP/1.0 keep-alive",
    wire: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 9.3",
  },
  {
    name: "r: HTTP/1.0 Keep-Alive in a list, any case",
    wire: "HTTP/1.0 200 OK\r\nConnection: foo, KEEP-ALIVE\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 9.3, 9110 7.6.1",
  },
  {
    name: "r: HTTP/1.0 without keep-alive closes",
    wire: "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(200, 5, false),
    rfc: "9112 9.3",
  },
  {
    name: "r: HTTP/1.0 keep-alive and close: close wins",
    wire: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(200, 5, false),
    rfc: "9112 9.6",
  },
  {
    name: "r: HTTP/1.0 keep-alive without a length runs until the close",
    wire: "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\nabc",
    ...fine(200, 3, false),
    untilClose: true,
    rfc: "9112 6.3 (8)",
  },
  {
    name: "r: Connection: Close",
    wire: cl5("Connection: Close\r\n"),
    ...fine(200, 5, false),
    rfc: "9112 9.6",
  },
  {
    name: "r: close last in a list",
    wire: cl5("Connection: keep-alive, upgrade, close\r\n"),
    ...fine(200, 5, false),
    rfc: "9112 9.6",
  },
  {
    name: "r: close first in a list",
    wire: cl5("Connection: CLOSE,keep-alive\r\n"),
    ...fine(200, 5, false),
    rfc: "9112 9.6",
  },
  {
    name: "r: close among empty list elements",
    wire: cl5("Connection: , ,\tclose ,\r\n"),
    ...fine(200, 5, false),
    rfc: "9110 5.6.1",
  },
  {
    name: "r: close-ish is not close",
    wire: cl5("Connection: closer, xclose\r\n"),
    ...fine(),
    rfc: "9110 7.6.1",
  },
  {
    name: "r: header value with obs-text",
    wire: cl5("X-Name: caf\xe9 \xff\r\n"),
    ...fine(),
    rfc: "9110 5.5",
  },
  { name: "r: empty header value", wire: cl5("X-Empty:\r\nX-Blank:   \r\n"), ...fine(), rfc: "9110 5.5" },
  {
    name: "r: every tchar in a name",
    wire: cl5("!#$%&'*+-.^_`|~09AZaz: v\r\n"),
    ...fine(),
    rfc: "9110 5.6.2",
  },
  {
    name: "r: no whitespace after the colon",
    wire: `${ok}Content-Length:5\r\n\r\nhello`,
    ...fine(),
    rfc: "9112 5.1",
  },
  {
    name: "r: bare LF line ends in the head (engine tolerates)",
    wire: "HTTP/1.1 200 OK\nContent-Length: 5\n\nhello",
    ...fine(),
    forwarder: "refuse",
    rfc: "9112 2.2",
  },
  {
    name: "r: obs-fold joined to the field before (engine)",
    wire: cl5("X-Long: a\r\n\tb\r\n"),
    ...fine(),
    forwarder: "refuse",
    rfc: "9112 5.2",
  },
  {
    name: "r: Content-Lengths is another field",
    wire: `${ok}Content-Lengths: 2\r\n\r\nhello`,
    ...fine(200, 5, false),
    untilClose: true,
    rfc: "9110 5.1",
  },
  {
    name: "r: Transfer-Encodings is another field",
    wire: `${ok}Transfer-Encodings: chunked\r\nContent-Length: 5\r\n\r\nhello`,
    ...fine(),
    rfc: "9110 5.1",
  },
  {
    name: "r: Connections is another field",
    wire: cl5("Connections: close\r\n"),
    ...fine(),
    rfc: "9110 5.1",
  },
  {
    name: "r: Proxy-Connection: close is not Connection",
    wire: cl5("Proxy-Connection: close\r\n"),
    ...fine(),
    rfc: "9110 7.6.1",
  },
  {
    name: "r: HTTP/1.0 204 with keep-alive keeps the connection",
    wire: "HTTP/1.0 204 No Content\r\nConnection: keep-alive\r\n\r\n",
    ...fine(204, 0),
    rfc: "9112 9.3, 6.3 (1)",
  },
  {
    name: "r: Content-Length-X is another field",
    wire: `${ok}Content-Length-X: 0\r\nTransfer-Encoding: chunked\r\n\r\n${hello}`,
    ...fine(),
    rfc: "9110 5.1",
  },
];

/** Field lines that are a parse error. */
const MALFORMED: FramingCase[] = [
  { name: "r: header line without a colon", wire: cl5("X-No-Colon\r\n"), ...fails, rfc: "9112 5" },
  { name: "r: empty header name", wire: cl5(": value\r\n"), ...fails, rfc: "9110 5.1" },
  {
    name: "r: space before the colon",
    wire: `${ok}Content-Length : 5\r\n\r\nhello`,
    ...fails,
    rfc: "9112 5.1",
  },
  { name: "r: space inside a name", wire: cl5("X Y: z\r\n"), ...fails, rfc: "9110 5.1" },
  { name: "r: non-token byte in a name", wire: cl5("X(y): z\r\n"), ...fails, rfc: "9110 5.6.2" },
  { name: "r: obs-text in a name", wire: cl5("X\xe9: z\r\n"), ...fails, rfc: "9110 5.6.2" },
  { name: "r: NUL in a value", wire: cl5("X-A: a\0b\r\n"), ...fails, rfc: "9110 5.5" },
  { name: "r: control byte in a value", wire: cl5("X-A: a\x01b\r\n"), ...fails, rfc: "9110 5.5" },
  { name: "r: DEL in a value", wire: cl5("X-A: a\x7fb\r\n"), ...fails, rfc: "9110 5.5" },
  { name: "r: bare CR in a value", wire: cl5("X-A: a\rContent-Length: 0\r\n"), ...fails, rfc: "9112 2.2" },
  {
    name: "r: whitespace line before the first field",
    wire: `${ok} Content-Length: 0\r\nContent-Length: 5\r\n\r\nhello`,
    ...fails,
    rfc: "9112 2.2",
  },
  { name: "r: headers separated by a bare CR", wire: cl5("Foo: 1\rBar: 2\r\n"), ...fails, rfc: "9112 2.2" },
];

export const FIELD_CASES: FramingCase[] = [...VALID, ...MALFORMED];
