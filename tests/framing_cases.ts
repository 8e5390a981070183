/**
 * @module
 * HTTP/1.1 response framing cases written from RFC 9112 (sections 2.2, 4, 5, 6, 7) and RFC 9110 (5.1,
 * 5.5, 6.4, 15): well-formed shapes, each framing rule, each tolerance a robust user agent grants, and the
 * malformed or ambiguous inputs that must be errors. Each case says what a reader must conclude: an
 * error, or a completed response with its status, body length and whether the connection stays open.
 * `forwarder: "refuse"` marks what the engine reads (as a user agent may) but a forwarder passing heads
 * on verbatim must refuse: bare LF line ends, obs-fold, Transfer-Encoding with Content-Length or in
 * HTTP/1.0. Shared by the table test of the engine's parser and the balancer's framing.
 */

export interface FramingCase {
  name: string;
  /** The response bytes, as a latin1 string (each char one byte). */
  wire: string;
  /** The response answers a HEAD request. */
  head?: boolean;
  /** A parse error (by both readers unless `forwarder` says otherwise). */
  error?: boolean;
  status?: number;
  /** Body bytes (decoded chunk data; until-close: every byte after the head). */
  body?: number;
  keepAlive?: boolean;
  /** The response is complete only at EOF (framed by the close). */
  untilClose?: boolean;
  /** The balancer refuses what the engine reads. */
  forwarder?: "refuse";
  /** The bytes end (EOF) before the response does: neither reader completes it, nor calls it an error. */
  incomplete?: boolean;
  /** The RFC section the expectation comes from. */
  rfc?: string;
}

const ok = "HTTP/1.1 200 OK\r\n";
const chunked = `${ok}Transfer-Encoding: chunked\r\n\r\n`;
/** A 200 with `fields` and Content-Length 5 and body "hello". */
const cl5 = (fields: string) => `${ok}${fields}Content-Length: 5\r\n\r\nhello`;
/** A 200 with the given Content-Length value(s) as separate lines and body "hello". */
const lengths = (...values: string[]) =>
  `${ok}${values.map((v) => `Content-Length: ${v}\r\n`).join("")}\r\nhello`;
const fine = (status = 200, body = 5, keepAlive = true) => ({ status, body, keepAlive });
const fails = { error: true } as const;

export const FRAMING_CASES: FramingCase[] = [
  // Well-formed shapes (RFC 9112 4, 6).
  { name: "content-length", wire: cl5(""), ...fine() },
  { name: "content-length 0", wire: `${ok}Content-Length: 0\r\n\r\n`, ...fine(200, 0) },
  { name: "chunked, two chunks", wire: `${chunked}5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n`, ...fine(200, 11) },
  {
    name: "chunk extensions, quoted value",
    wire: `${chunked}5;a=b;c="d e"\r\nhello\r\n0;z\r\n\r\n`,
    ...fine(),
  },
  {
    name: "chunked with trailers",
    wire: `${chunked}5\r\nhello\r\n0\r\nX-Sum: 1\r\nX-B: 2\r\n\r\n`,
    ...fine(),
  },
  { name: "upper-case hex chunk size", wire: `${chunked}A\r\n0123456789\r\n0\r\n\r\n`, ...fine(200, 10) },
  { name: "chunk size with leading zeros", wire: `${chunked}0005\r\nhello\r\n000\r\n\r\n`, ...fine() },
  {
    name: "whitespace before a chunk extension",
    wire: `${chunked}5 \t;x=1\r\nhello\r\n0 \r\n\r\n`,
    ...fine(),
  },
  {
    name: "TE value is case-insensitive",
    wire: `${ok}Transfer-Encoding: CHUNKED\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
  },
  {
    name: "chunked final after gzip",
    wire: `${ok}Transfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
  },
  {
    name: "TE list over two field lines",
    wire: `${ok}Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
  },
  {
    name: "TE list with empty elements",
    wire: `${ok}Transfer-Encoding: ,gzip,, chunked ,\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
  },
  {
    name: "no framing: body until close",
    wire: `${ok}X-A: 1\r\n\r\nuntil the end`,
    ...fine(200, 13, false),
    untilClose: true,
  },
  {
    name: "HTTP/1.0 closes by default",
    wire: "HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(200, 5, false),
  },
  {
    name: "HTTP/1.0 with keep-alive",
    wire: "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
  },
  {
    name: "HTTP/1.1 minor above 1 is read as 1.1",
    wire: "HTTP/1.2 200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
  },
  // Connection (RFC 9110 7.6.1, RFC 9112 9.3, 9.6).
  { name: "connection close", wire: cl5("Connection: close\r\n"), ...fine(200, 5, false) },
  { name: "close as a later token", wire: cl5("Connection: keep-alive, close\r\n"), ...fine(200, 5, false) },
  {
    name: "close in any case, among others",
    wire: cl5("Connection: Upgrade ,CLOSE\r\n"),
    ...fine(200, 5, false),
  },
  {
    name: "close on a second Connection line",
    wire: cl5("Connection: te\r\nConnection: close\r\n"),
    ...fine(200, 5, false),
  },
  { name: "only the Connection field itself counts", wire: cl5("X-Connection: close\r\n"), ...fine() },
  { name: "closed is not close", wire: cl5("Connection: closed\r\n"), ...fine() },
  // No body, whatever the fields say (RFC 9112 6.3 rule 1).
  { name: "HEAD with content-length", wire: `${ok}Content-Length: 100\r\n\r\n`, head: true, ...fine(200, 0) },
  { name: "HEAD with chunked", wire: chunked, head: true, ...fine(200, 0) },
  {
    name: "204 with content-length",
    wire: "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n",
    ...fine(204, 0),
  },
  {
    name: "304 with content-length",
    wire: "HTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\n\r\n",
    ...fine(304, 0),
  },
  // Interim and switching responses (RFC 9110 15.2).
  { name: "100 Continue then the response", wire: `HTTP/1.1 100 Continue\r\n\r\n${cl5("")}`, ...fine() },
  {
    name: "103 Early Hints with fields",
    wire: `HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n${cl5("")}`,
    ...fine(),
  },
  {
    name: "two interim heads",
    wire: `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n${cl5("")}`,
    ...fine(),
  },
  {
    name: "101 ends the HTTP part; the connection closes",
    wire: "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: upgrade\r\n\r\n",
    ...fine(101, 0, false),
  },
  // Status line (RFC 9112 4, RFC 9110 15): any 3-digit code, tolerated shapes.
  { name: "status 600", wire: "HTTP/1.1 600 Custom\r\nContent-Length: 5\r\n\r\nhello", ...fine(600) },
  { name: "status 999", wire: "HTTP/1.1 999 X\r\nContent-Length: 5\r\n\r\nhello", ...fine(999) },
  // 3DIGIT (RFC 9112 4): below 100 is as invalid as above 599, read as an error answer (RFC 9110 15), final.
  { name: "status 099", wire: "HTTP/1.1 099 X\r\nContent-Length: 5\r\n\r\nhello", ...fine(99) },
  { name: "status 000", wire: "HTTP/1.1 000 X\r\nContent-Length: 5\r\n\r\nhello", ...fine(0) },
  { name: "no reason phrase, no space", wire: "HTTP/1.1 200\r\nContent-Length: 5\r\n\r\nhello", ...fine() },
  { name: "empty reason phrase", wire: "HTTP/1.1 404 \r\nContent-Length: 5\r\n\r\nhello", ...fine(404) },
  {
    name: "reason with HTAB and obs-text",
    wire: "HTTP/1.1 200 O\tK \xe9\xff\r\nContent-Length: 5\r\n\r\nhello",
    ...fine(),
  },
  // Interop tolerances (RFC 9112 2.2, 5.2).
  { name: "empty line before the status line", wire: `\r\n${cl5("")}`, ...fine() },
  { name: "eight empty lines before the status line", wire: `${"\r\n".repeat(8)}${cl5("")}`, ...fine() },
  { name: "nine empty lines are too many", wire: `${"\r\n".repeat(9)}${cl5("")}`, ...fails },
  { name: "empty line after 100 Continue", wire: `HTTP/1.1 100 Continue\r\n\r\n\r\n${cl5("")}`, ...fine() },
  {
    name: "bare LF line ends",
    wire: "HTTP/1.1 200 OK\nContent-Length: 5\nX-A: 1\n\nhello",
    ...fine(),
    forwarder: "refuse",
  },
  {
    name: "bare LF in a chunked body's lines",
    wire: `${chunked}5\nhello\r\n0\n\n`,
    ...fails,
    rfc:
      "9112 7.1: chunk lines end in CRLF (the bare-LF allowance of 2.2 is for the head), as in llhttp and hyper",
  },
  { name: "obs-fold joined to a field", wire: cl5("X-Long: a\r\n  b\r\n"), ...fine(), forwarder: "refuse" },
  {
    name: "obs-fold continues Transfer-Encoding",
    wire: `${ok}Transfer-Encoding: gzip,\r\n\tchunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(),
    forwarder: "refuse",
  },
  {
    name: "obs-fold splitting a content-length is an error",
    wire: `${ok}Content-Length: 1\r\n 2\r\n\r\nhello`,
    ...fails,
  },
  {
    name: "whitespace line right after the status line",
    wire: `${ok} X-A: 1\r\nContent-Length: 5\r\n\r\nhello`,
    ...fails,
  },
  // Field names (RFC 9110 5.1, 5.6.2; RFC 9112 5.1).
  { name: "names compare case-insensitively", wire: `${ok}cOnTeNt-LeNgTh: 5\r\n\r\nhello`, ...fine() },
  { name: "CR inside Content-Length's name", wire: `${ok}Content\rLength: 5\r\n\r\nhello`, ...fails },
  {
    name: "CR inside Transfer-Encoding's name",
    wire: `${ok}Transfer\rEncoding: chunked\r\n\r\n0\r\n\r\n`,
    ...fails,
  },
  { name: "space before the colon", wire: `${ok}Content-Length : 5\r\n\r\nhello`, ...fails },
  { name: "non-token byte in a name", wire: `${ok}X(A): 1\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  { name: "empty field name", wire: `${ok}: 1\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  {
    name: "field line without a colon",
    wire: `${ok}no colon here\r\nContent-Length: 5\r\n\r\nhello`,
    ...fails,
  },
  {
    name: "a near-name is another field",
    wire: `${ok}Content-Lengths: 7\r\nContent-Length: 5\r\n\r\nhello`,
    ...fine(),
  },
  // Bare CR and control bytes (RFC 9112 2.2, RFC 9110 5.5).
  {
    name: "bare CR hides a field in the reason",
    wire: `HTTP/1.1 200 OK\rContent-Length: 5\r\n\r\nhello`,
    ...fails,
  },
  { name: "bare CR in a field value", wire: `${ok}X-A: a\rb\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  { name: "CR CR LF", wire: `${ok}X-A: a\r\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  { name: "NUL in a field value", wire: `${ok}X-A: a\x00b\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  {
    name: "control byte in a field value",
    wire: `${ok}X-A: a\x01b\r\nContent-Length: 5\r\n\r\nhello`,
    ...fails,
  },
  { name: "DEL in a field value", wire: `${ok}X-A: a\x7fb\r\nContent-Length: 5\r\n\r\nhello`, ...fails },
  {
    name: "obs-text in a field value",
    wire: `${ok}X-A: caf\xe9\r\nContent-Length: 5\r\n\r\nhello`,
    ...fine(),
  },
  // Transfer-Encoding (RFC 9112 6.1, 6.3 rules 3 and 4).
  {
    name: "chunkedchunked is not chunked",
    wire: `${ok}Transfer-Encoding: chunkedchunked\r\n\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    untilClose: true,
  },
  {
    name: "xchunked is not chunked",
    wire: `${ok}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    untilClose: true,
  },
  {
    name: "gzip;chunked is not chunked",
    wire: `${ok}Transfer-Encoding: gzip;chunked\r\n\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    untilClose: true,
  },
  {
    name: "chunked not final: until close",
    wire: `${ok}Transfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    untilClose: true,
  },
  {
    name: "chunked with a space inside",
    wire: `${ok}Transfer-Encoding: chun ked\r\n\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    untilClose: true,
  },
  {
    name: "identity with content-length: until close",
    wire: `${ok}Transfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello world`,
    ...fine(200, 11, false),
    untilClose: true,
    forwarder: "refuse",
  },
  {
    name: "chunked wins over content-length, then closes",
    wire: `${ok}Content-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`,
    ...fine(200, 5, false),
    forwarder: "refuse",
  },
  {
    name: "chunked in HTTP/1.0, then closes",
    wire:
      "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    ...fine(200, 5, false),
    forwarder: "refuse",
  },
  {
    name: "chunked listed twice",
    wire: `${ok}Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n`,
    ...fails,
  },
  // Content-Length (RFC 9110 8.6, RFC 9112 6.3 rule 5).
  {
    name: "content-length with whitespace around",
    wire: `${ok}Content-Length: \t 5 \t\r\n\r\nhello`,
    ...fine(),
  },
  { name: "identical list 5, 5", wire: lengths("5, 5"), ...fine() },
  { name: "identical values on two lines", wire: lengths("5", "5"), ...fine() },
  { name: "trailing garbage 5x", wire: lengths("5x"), ...fails },
  { name: "two numbers 1 2", wire: lengths("1 2"), ...fails },
  { name: "signed +5", wire: lengths("+5"), ...fails },
  { name: "negative", wire: lengths("-5"), ...fails },
  { name: "hex 0x5", wire: lengths("0x5"), ...fails },
  { name: "empty value", wire: lengths(""), ...fails },
  { name: "trailing comma", wire: lengths("5,"), ...fails },
  { name: "conflicting list 5, 6", wire: lengths("5, 6"), ...fails },
  { name: "conflicting lines", wire: lengths("5", "6"), ...fails },
  { name: "overlong, not wrapped", wire: lengths("18446744073709551621"), ...fails },
  { name: "2^53 is not exact", wire: lengths("9007199254740992"), ...fails },
  // Chunk lines (RFC 9112 7.1).
  { name: "chunk size 0x5", wire: `${chunked}0x5\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "overlong chunk size", wire: `${chunked}1000000000000005\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "garbage after a chunk size", wire: `${chunked}5 x\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "empty chunk-size line", wire: `${chunked}\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "whitespace before a chunk size", wire: `${chunked} 5\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "chunk data longer than its size", wire: `${chunked}5\r\nhelloXY\r\n0\r\n\r\n`, ...fails },
  { name: "chunk data ended by a bare LF", wire: `${chunked}5\r\nhello\n0\r\n\r\n`, ...fails },
  { name: "bare CR in a chunk extension", wire: `${chunked}5;a\rb\r\nhello\r\n0\r\n\r\n`, ...fails },
  { name: "bad trailer name", wire: `${chunked}5\r\nhello\r\n0\r\nBad Name: x\r\n\r\n`, ...fails },
  { name: "bare CR in a trailer", wire: `${chunked}5\r\nhello\r\n0\r\nX-T: a\rb\r\n\r\n`, ...fails },
  { name: "obs-fold as the first trailer line", wire: `${chunked}5\r\nhello\r\n0\r\n x\r\n\r\n`, ...fails },
  // Status lines that are not HTTP/1.x SP 3DIGIT.
  { name: "HTTP/2.0", wire: "HTTP/2.0 200 OK\r\nContent-Length: 5\r\n\r\nhello", ...fails },
  { name: "lower-case http", wire: "http/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", ...fails },
  {
    name: "two spaces before the status",
    wire: "HTTP/1.1  200 OK\r\nContent-Length: 5\r\n\r\nhello",
    ...fails,
  },
  { name: "two-digit status", wire: "HTTP/1.1 20 OK\r\nContent-Length: 5\r\n\r\nhello", ...fails },
  { name: "four-digit status", wire: "HTTP/1.1 2000 OK\r\nContent-Length: 5\r\n\r\nhello", ...fails },
  { name: "no space after the status", wire: "HTTP/1.1 200OK\r\nContent-Length: 5\r\n\r\nhello", ...fails },
  { name: "not HTTP at all", wire: "SSH-2.0-OpenSSH_9.6\r\n", ...fails },
];
