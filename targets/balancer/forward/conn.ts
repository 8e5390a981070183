/**
 * @module
 * The sockets of the balancer: a connection with its own read buffer (bytes are read into it and handed
 * on as views, never copied into strings), and a pool of idle keep-alive connections per upstream, so a
 * request costs no TCP handshake once the pool is warm. HOT PATH: a read fills the connection's one
 * buffer; a write passes a view of another connection's buffer to the socket.
 */
import type { MessageFramer } from "../../../http1/message_framer.ts";
import { MAX_HEAD_BYTES, type MessageHead } from "./http1.ts";

/**
 * First size of a connection's read buffer; it grows (to MAX_HEAD_BYTES for a head) only when a head does not
 * fit.
 */
const BUFFER_BYTES = 16 * 1024;
/** Idle connections kept per upstream; more are closed when they come back. */
const MAX_IDLE_PER_UPSTREAM = 512;

/** A socket and the bytes read from it but not consumed yet: buf[start, end). */
export class BufferedConn {
  buf = new Uint8Array(BUFFER_BYTES);
  start = 0;
  end = 0;
  /** Parse state of the message in flight on this connection, reused for every message. */
  head: MessageHead | null = null;
  /** Finds where a chunked body ends, across reads (see relay.ts). */
  chunked: MessageFramer | null = null;
  /**
   * Bytes of this connection passed on by the relay so far. `start` cannot tell it: `fill` moves the
   * unconsumed bytes to the front, so a position seen before a relay may come round again after it.
   */
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

  /** Consumes `n` bytes. */
  skip(n: number): void {
    this.start += n;
  }

  close(): void {
    try {
      this.conn.close();
    } catch { /* already closed */ }
  }
}

/** Idle keep-alive connections to one upstream, most recently used first. */
export class UpstreamPool {
  readonly hostname: string;
  readonly port: number;
  #idle: BufferedConn[] = [];
  /** TCP connections opened so far: with keep-alive working, far fewer than requests. */
  opened = 0;
  /** 502s answered for this upstream (unreachable, or an answer whose framing was refused). */
  badGateways = 0;

  constructor(readonly baseUrl: string) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:") throw new TypeError(`upstream must be http://, got ${baseUrl}`);
    this.hostname = url.hostname.replace(/^\[|\]$/g, "");
    this.port = Number(url.port || 80);
  }

  /** An idle connection, if there is one. */
  takeIdle(): BufferedConn | undefined {
    return this.#idle.pop();
  }

  async connect(): Promise<BufferedConn> {
    const conn = await Deno.connect({ hostname: this.hostname, port: this.port });
    conn.setNoDelay(true);
    this.opened++;
    return new BufferedConn(conn);
  }

  /** Returns a connection whose last answer was read completely and that may be used again. */
  release(up: BufferedConn): void {
    if (up.start !== up.end || this.#idle.length >= MAX_IDLE_PER_UPSTREAM) return up.close();
    up.start = up.end = 0;
    this.#idle.push(up);
  }

  close(): void {
    for (const up of this.#idle.splice(0)) up.close();
  }
}
