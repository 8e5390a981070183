/**
 * @module
 * The balancer's HTTP/1.1 framers (shared framer, `verbatim`): ambiguous framing is refused. A connection
 * keeps its own head framer, which holds the last head's facts (status, framing, keep-alive) until the next.
 */
import { MessageFramer } from "../../../http1/message_framer.ts";

/** Longest request or response head accepted, like NGINX's large_client_header_buffers (4 x 8k) and more. */
export const MAX_HEAD_BYTES = 64 * 1024;

/** A connection's framer of request heads (`request`) or of answer heads, 1xx included. */
export function headFramer(request: boolean): MessageFramer {
  return new MessageFramer({ request, verbatim: true, stopAtHeads: true, maxHeadBytes: MAX_HEAD_BYTES });
}

/**
 * Frames the head at buf[from, to) (an answer to HEAD has no body whatever it says): the index past it,
 * NEED_MORE or PARSE_ERROR (`framer.error` says why); empty lines before it are `framer.leadingBytes`.
 */
export function parseHead(framer: MessageFramer, buf: Uint8Array, from: number, to: number, isHead = false) {
  framer.start(isHead);
  return framer.feed(buf, from, to);
}

/** A framer that finds where a chunked body ends, with the balancer's strictness (`startChunkedBody()`). */
export function bodyFramer(): MessageFramer {
  return new MessageFramer({ verbatim: true, maxHeadBytes: MAX_HEAD_BYTES });
}
