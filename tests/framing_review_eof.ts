/**
 * @module
 * Review cases of where a response ends: cut short by EOF in each state, or followed by bytes nobody asked
 * for. Part of the review table (framing_review_cases.ts); the shared wire pieces are in
 * framing_review_wire.ts.
 */
import type { FramingCase } from "./framing_cases.ts";
import { cl5, cut, hello, ok, te } from "./framing_review_wire.ts";

/** Cases cut short by EOF: never complete, never an error of framing (the connection broke). */
export const CUT_SHORT_CASES: FramingCase[] = [
  { name: "r: EOF before any byte", wire: "", ...cut, rfc: "9112 8" },
  { name: "r: EOF in the version", wire: "HTTP/1.", ...cut, rfc: "9112 8" },
  { name: "r: EOF in the status", wire: "HTTP/1.1 20", ...cut, rfc: "9112 8" },
  { name: "r: EOF in the reason", wire: "HTTP/1.1 200 O", ...cut, rfc: "9112 8" },
  { name: "r: EOF between CR and LF", wire: "HTTP/1.1 200 OK\r", ...cut, rfc: "9112 8" },
  { name: "r: EOF in a field name", wire: `${ok}Content-Le`, ...cut, rfc: "9112 8" },
  { name: "r: EOF in a field value", wire: `${ok}Content-Length: 5`, ...cut, rfc: "9112 8" },
  { name: "r: EOF before the empty line", wire: `${ok}Content-Length: 5\r\n`, ...cut, rfc: "9112 8" },
  {
    name: "r: EOF in a content-length body",
    wire: `${ok}Content-Length: 5\r\n\r\nhel`,
    ...cut,
    rfc: "9112 8",
  },
  {
    name: "r: EOF long before a large content-length",
    wire: `${ok}Content-Length: 1099511627776\r\n\r\nhello`,
    ...cut,
    rfc: "9112 8",
  },
  { name: "r: EOF after 100 Continue", wire: "HTTP/1.1 100 Continue\r\n\r\n", ...cut, rfc: "9112 8" },
  { name: "r: EOF in a chunk size", wire: `${te}5`, ...cut, rfc: "9112 8" },
  { name: "r: EOF in a chunk extension", wire: `${te}5;a="b`, ...cut, rfc: "9112 8" },
  { name: "r: EOF in chunk data", wire: `${te}5\r\nhel`, ...cut, rfc: "9112 8" },
  { name: "r: EOF after chunk data, before its CRLF", wire: `${te}5\r\nhello`, ...cut, rfc: "9112 8" },
  { name: "r: EOF before the last chunk", wire: `${te}5\r\nhello\r\n`, ...cut, rfc: "9112 8" },
  {
    name: "r: EOF after the last chunk, no final CRLF",
    wire: `${te}5\r\nhello\r\n0\r\n`,
    ...cut,
    rfc:
      "9112 7.1 (chunked-body ends in CRLF; 8 counts only the last chunk, but h11, hyper and llhttp call this incomplete)",
  },
  { name: "r: EOF in the trailers", wire: `${te}5\r\nhello\r\n0\r\nX: y\r\n`, ...cut, rfc: "9112 7.1.2, 8" },
];

/** Responses followed by bytes nobody asked for: the response ends where its framing says, exactly. */
export const EXTRA_BYTES: { name: string; wire: string; head?: boolean; end: number }[] = [
  { name: "body longer than its content-length", wire: cl5("") + "EXTRA", end: cl5("").length },
  { name: "a body after a 204", wire: "HTTP/1.1 204 No Content\r\n\r\nhello", end: 27 },
  { name: "a body after a HEAD answer", wire: `${ok}Content-Length: 5\r\n\r\nhello`, head: true, end: 38 },
  { name: "bytes after the last chunk", wire: `${te}${hello}junk`, end: te.length + hello.length },
];
