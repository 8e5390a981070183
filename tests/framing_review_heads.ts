/**
 * @module
 * Review cases of the start line and the heads before the final one: status lines (digits, version, reason
 * phrase), empty lines before a start line, interim 1xx heads and 101. Part of the review table
 * (framing_review_cases.ts); the shared wire pieces are in framing_review_wire.ts.
 */
import type { FramingCase } from "./framing_cases.ts";
import { cl5, fails, fine } from "./framing_review_wire.ts";

/** Start lines and interim heads that frame, as robust clients read them. */
const VALID: FramingCase[] = [
  {
    name: "r: 100 then 103 then 200",
    wire: `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n${
      cl5("")
    }`,
    ...fine(),
    rfc: "9110 15.2",
  },
  {
    name: "r: 102 then 204",
    wire: "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n",
    ...fine(204, 0),
    rfc: "9110 15.2",
  },
  {
    name: "r: an interim head's content-length is not the final one's",
    wire: `HTTP/1.1 103 Early Hints\r\nContent-Length: 9\r\n\r\n${cl5("")}`,
    ...fine(),
    rfc: "9110 15.2",
  },
  {
    name: "r: CRLF after 100 Continue",
    wire: `HTTP/1.1 100 Continue\r\n\r\n\r\n${cl5("")}`,
    ...fine(),
    rfc: "9112 2.2",
  },
  {
    name: "r: 101 ends the HTTP/1.1 exchange",
    wire: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    ...fine(101, 0, false),
    rfc: "9110 15.2.2",
  },
  {
    name: "r: status line without a reason",
    wire: "HTTP/1.1 200\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 4 (robust clients)",
  },
  {
    name: "r: status line with an empty reason",
    wire: "HTTP/1.1 200 \r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 4",
  },
  {
    name: "r: reason with HTAB, obs-text and odd characters",
    wire: 'HTTP/1.1 200 \xc7a\tva : bien; "ok"\r\nContent-Length: 5\r\n\r\nhello',
    ...fine(),
    rfc: "9112 4",
  },
  {
    name: "r: status 599",
    wire: "HTTP/1.1 599 Who\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(599),
    rfc: "9110 15",
  },
  {
    name: "r: status 999 (any 3 digits)",
    wire: "HTTP/1.1 999 X\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(999),
    rfc: "9112 4",
  },
  {
    name: "r: HTTP/1.9 reads as 1.1",
    wire: "HTTP/1.9 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 2.6",
  },
  {
    name: "r: two empty lines before the status line",
    wire: `\r\n\r\n${cl5("")}`,
    ...fine(),
    rfc: "9112 2.2",
  },
  {
    name: "r: two spaces between status and reason",
    wire: "HTTP/1.1 200  OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
    rfc: "9112 4 (the reason phrase may start with SP)",
  },
  {
    name: "r: 200 with Upgrade is an ordinary response",
    wire: cl5("Connection: upgrade\r\nUpgrade: h2c\r\n"),
    ...fine(),
    rfc: "9110 7.8",
  },
];

/** Start lines and interim heads that are a parse error. */
const MALFORMED: FramingCase[] = [
  {
    name: "r: status with 2 digits",
    wire: "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: status with 4 digits",
    wire: "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: status with a letter",
    wire: "HTTP/1.1 2o0 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    // Invalid (outside 100-599) but 3DIGIT: "SHOULD process the response as if it had a 5xx", final.
    name: "r: status below 100",
    wire: "HTTP/1.1 099 OK\r\nContent-Length: 0\r\n\r\n",
    ...fine(99, 0),
    rfc: "9110 15",
  },
  {
    name: "r: status 4 digits, no reason",
    wire: "HTTP/1.1 2000\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: no SP after the version",
    wire: "HTTP/1.1200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: two SP after the version",
    wire: "HTTP/1.1  200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: HTAB after the version",
    wire: "HTTP/1.1\t200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: no SP after the status",
    wire: "HTTP/1.1 200OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  { name: "r: HTTP/2.0", wire: "HTTP/2.0 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  { name: "r: HTTP/1.1x", wire: "HTTP/1.1x 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  { name: "r: HTTP/1.10", wire: "HTTP/1.10 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  {
    name: "r: HTTP/1 without minor",
    wire: "HTTP/1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 2.3",
  },
  {
    name: "r: lower-case http/1.1",
    wire: "http/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 2.3",
  },
  {
    name: "r: space before the status line",
    wire: " HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 2.2",
  },
  { name: "r: HTTP/0.9 style body only", wire: "hello world\r\n", ...fails, rfc: "9112 2.3" },
  {
    name: "r: NUL in the reason",
    wire: "HTTP/1.1 200 O\0K\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  {
    name: "r: bare CR in the reason",
    wire: "HTTP/1.1 200 O\rK\r\nContent-Length: 0\r\n\r\n",
    ...fails,
    rfc: "9112 2.2",
  },
  {
    name: "r: nine empty lines before the status line",
    wire: `${"\r\n".repeat(9)}${cl5("")}`,
    ...fails,
    rfc: "9112 2.2 (bounded)",
  },
  {
    name: "r: a bad final head after 100 Continue",
    wire: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 20 OK\r\n\r\n",
    ...fails,
    rfc: "9112 4",
  },
  { name: "r: HTTP/1.01", wire: "HTTP/1.01 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  { name: "r: HTTP/01.1", wire: "HTTP/01.1 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  { name: "r: HTTP/5.6", wire: "HTTP/5.6 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
  { name: "r: HTP/1.1", wire: "HTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", ...fails, rfc: "9112 2.3" },
];

export const HEAD_CASES: FramingCase[] = [...VALID, ...MALFORMED];
