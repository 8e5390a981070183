/**
 * @module
 * The balancer's sockets: a connection with its own read buffer, handed on as views, a pool of idle
 * keep-alive connections per upstream, and their HTTP/1.1 framers (the shared one, `verbatim`: ambiguous
 * framing is refused), which keep the last head's facts until the next. HOT PATH: no copies, no strings.
 */
import { MessageFramer } from "../../../http1/message_framer.ts";
import { closeQuietly } from "../../../system/descriptors.ts";

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

/** A connection's first read buffer; it grows (to MAX_HEAD_BYTES) only when a head does not fit. */
const BUFFER_BYTES = 16 * 1024;
const MAX_IDLE_PER_UPSTREAM = 512;

/** A socket and the bytes read from it but not consumed yet: buf[start, end). */
export class BufferedConn {
  buf = new Uint8Array(BUFFER_BYTES);
  start = 0;
  end = 0;
  /** Frames every head read on it (`headFramer`). */
  head: MessageFramer | null = null;
  /** Finds where a chunked body ends, across reads (relay.ts). */
  chunked: MessageFramer | null = null;
  /** Bytes passed on by the relay so far: `fill` moves bytes, so `start` cannot tell. */
  relayedBytes = 0;

  constructor(readonly conn: Deno.Conn) {}

  /** Reads more bytes after `end`, making room first. False at end of stream. */
  async fill(): Promise<boolean> {
    if (this.start === this.end) this.start = this.end = 0;
    else if (this.end === this.buf.length) this.#makeRoom();
    const n = await this.conn.read(this.buf.subarray(this.end));
    if (n === null) return false;
    this.end += n;
    return true;
  }

  /** Moves unconsumed bytes to the front, or doubles the buffer when they fill it. */
  #makeRoom(): void {
    const pending = this.end - this.start;
    if (this.start > 0) {
      this.buf.copyWithin(0, this.start, this.end);
    } else {
      const bigger = new Uint8Array(Math.min(this.buf.length * 2, MAX_HEAD_BYTES));
      if (bigger.length <= this.buf.length) throw new RangeError("message head too large");
      bigger.set(this.buf.subarray(0, pending));
      this.buf = bigger;
    }
    this.start = 0;
    this.end = pending;
  }

  skip(n: number): void {
    this.start += n;
  }

  close(): void {
    closeQuietly(this.conn);
  }
}

/** Idle keep-alive connections to one upstream, most recently used first. */
export class UpstreamPool {
  readonly hostname: string;
  readonly port: number;
  #idle: BufferedConn[] = [];
  /** TCP connections opened: with keep-alive working, far fewer than requests. */
  opened = 0;
  /** 502s answered: unreachable, or an answer whose framing was refused. */
  badGateways = 0;

  constructor(readonly baseUrl: string) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:") throw new TypeError(`upstream must be http://, got ${baseUrl}`);
    this.hostname = url.hostname.replace(/^\[|\]$/g, "");
    this.port = Number(url.port || 80);
  }

  takeIdle(): BufferedConn | undefined {
    return this.#idle.pop();
  }

  async connect(): Promise<BufferedConn> {
    const conn = await Deno.connect({ hostname: this.hostname, port: this.port });
    conn.setNoDelay(true);
    this.opened++;
    return new BufferedConn(conn);
  }

  /** Takes back a connection whose last answer was read completely. */
  release(up: BufferedConn): void {
    if (up.start !== up.end || this.#idle.length >= MAX_IDLE_PER_UPSTREAM) return up.close();
    up.start = up.end = 0;
    this.#idle.push(up);
  }

  close(): void {
    for (const up of this.#idle.splice(0)) up.close();
  }
}
