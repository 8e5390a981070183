/**
 * @module
 * The balancer's view of HTTP/1.1 heads through the shared framer in `verbatim` mode: where a head ends,
 * how its body is framed, whether the connection stays open. Anything a downstream could frame
 * differently is refused, not rewritten (request smuggling). One pass per head, no allocation.
 */
import { Framing } from "../../../http1/body_framing.ts";
import { MessageFramer, NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";

/** Longest request or response head accepted, like NGINX's large_client_header_buffers (4 x 8k) and more. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** Returned instead of a head's end when more bytes are needed. */
export const INCOMPLETE = -1;
/** Returned instead of a head's end when the head cannot be framed safely; `error` says why. */
export const MALFORMED = -2;

/** What the forwarder needs to know about one head; filled in place by the parse functions. */
export interface MessageHead {
  framing: Framing;
  /** Body bytes when framing is `Length`. */
  contentLength: number;
  /** The sender asked to close the connection after this message (or speaks HTTP/1.0 without keep-alive). */
  close: boolean;
  /** Response: status code. Request: 0. */
  status: number;
  /** Request: the method is HEAD (its response has no body whatever its headers say). */
  head: boolean;
  /** Where the head's start line begins (empty lines before it are skipped, not forwarded). */
  headStart: number;
  /** Request: offsets of the request-target in the buffer. */
  targetStart: number;
  targetEnd: number;
  /** Why the head was MALFORMED (a constant string). */
  error: string;
}

export function newHead(): MessageHead {
  return {
    framing: Framing.None,
    contentLength: 0,
    close: false,
    status: 0,
    head: false,
    headStart: 0,
    targetStart: 0,
    targetEnd: 0,
    error: "",
  };
}

// A head is parsed in one synchronous call from its first byte, so one framer per kind serves every
// connection; a chunked body is scanned across reads, so each connection has its own (`bodyFramer`).
const requests = new MessageFramer({
  request: true,
  verbatim: true,
  stopAtHeads: true,
  maxHeadBytes: MAX_HEAD_BYTES,
});
const responses = new MessageFramer({ verbatim: true, stopAtHeads: true, maxHeadBytes: MAX_HEAD_BYTES });

/** A framer that finds where a chunked body ends, with the balancer's strictness (`startChunkedBody()`). */
export function bodyFramer(): MessageFramer {
  return new MessageFramer({ verbatim: true, maxHeadBytes: MAX_HEAD_BYTES });
}

/** Runs `framer` over buf[from, to) and fills `out`; returns the head's end, INCOMPLETE or MALFORMED. */
function frame(framer: MessageFramer, buf: Uint8Array, from: number, to: number, out: MessageHead): number {
  const end = framer.feed(buf, from, to);
  if (end === NEED_MORE) return INCOMPLETE;
  if (end === PARSE_ERROR) {
    out.error = framer.error;
    return MALFORMED;
  }
  out.framing = framer.framing;
  out.contentLength = framer.contentLength;
  out.close = !framer.keepAlive;
  out.status = framer.status;
  out.head = framer.headMethod;
  out.headStart = from + framer.leadingBytes;
  out.targetStart = framer.targetStart;
  out.targetEnd = framer.targetEnd;
  return end;
}

/**
 * Parses the request head starting at `from` into `out`. Returns the index just past the head,
 * INCOMPLETE when the blank line has not arrived yet, or MALFORMED.
 */
export function parseRequestHead(buf: Uint8Array, from: number, to: number, out: MessageHead): number {
  requests.start();
  return frame(requests, buf, from, to, out);
}

/**
 * Parses the response head starting at `from` into `out` (an interim 1xx head is a head of its own);
 * `requestWasHead` and the status decide whether a body follows (RFC 9112 6.3). Returns the index just
 * past the head, INCOMPLETE or MALFORMED.
 */
export function parseResponseHead(
  buf: Uint8Array,
  from: number,
  to: number,
  requestWasHead: boolean,
  out: MessageHead,
): number {
  responses.start(requestWasHead);
  return frame(responses, buf, from, to, out);
}
