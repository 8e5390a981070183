/**
 * @module
 * The balancer's HTTP/1.1 heads (shared framer, `verbatim`): ambiguous framing is refused.
 */
import { Framing } from "../../../http1/body_framing.ts";
import { MessageFramer, NEED_MORE, PARSE_ERROR } from "../../../http1/message_framer.ts";

/** Longest request or response head accepted, like NGINX's large_client_header_buffers (4 x 8k) and more. */
export const MAX_HEAD_BYTES = 64 * 1024;

export const INCOMPLETE = -1;
/** The head cannot be framed safely; `error` says why. */
export const MALFORMED = -2;

/** Filled in place by the parse functions. */
export type MessageHead = ReturnType<typeof newHead>;

export function newHead() {
  return {
    framing: Framing.None as Framing,
    contentLength: 0,
    /** Close after this message (asked, or HTTP/1.0 without keep-alive). */
    close: false,
    /** Request: 0. */
    status: 0,
    /** Request: the method is HEAD. */
    head: false,
    /** Empty lines before the start line are skipped, not forwarded. */
    headStart: 0,
    targetStart: 0,
    targetEnd: 0,
    /** A constant string. */
    error: "",
  };
}

// A head is parsed in one synchronous call, so one framer per kind serves every connection; a chunked
// body is scanned across reads, so each connection has its own (`bodyFramer`).
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

/** Parses the request head at `from` into `out`: the index past it, INCOMPLETE or MALFORMED. */
export function parseRequestHead(buf: Uint8Array, from: number, to: number, out: MessageHead): number {
  requests.start();
  return frame(requests, buf, from, to, out);
}

/** Parses a response head (1xx included) into `out`; `requestWasHead` and the status decide the body. */
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
