/**
 * @module
 * k6's legacy `k6/ws` and k6 v1's `k6/websockets`: `ws.connect` opens a WebSocket (the `ws` package)
 * where the run sends the URL's origin and resolves once it closed; `new WebSocket` opens one on the same
 * client and holds its iteration until it closed. Their messages count in k6's `ws_*` metrics and the run's
 * `ws` section. A message is capped at 16 MiB each way (the package's default: 100 MiB; k6/ws cannot raise
 * it, so it is above flows' 1 MiB): an incoming one closes the socket with 1009 (`ws-too-big`), an outgoing
 * one throws.
 */
// By its npm address, not the import map: converted scripts are checked from the cache folder.
// deno-lint-ignore no-import-prefix
import Ws from "npm:ws@^8.18.0";
import type { IncomingMessage } from "node:http";
import { back, context, current, releaseHold, type VuContext } from "./runtime.ts";
import { Counter, Trend } from "./metrics.ts";
import { countSessionError, openScriptWsStats } from "../sessions/ws_stats.ts";
import type { Session } from "../session.ts";
import { concatBytes } from "../../../system/copy_bytes.ts";

interface WsParams {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  compression?: string;
}

const PARAMS = new Set(["headers", "tags", "compression"]);

/** The largest k6/ws message, each way: its payload (a text message's UTF-8 bytes). */
const K6_WS_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const CAP_TEXT = `k6/ws's cap of ${K6_WS_MAX_MESSAGE_BYTES / (1024 * 1024)} MiB a message`;

/** Throws, at the script's line, when `payloadBytes` of a message it sends are past the cap. */
function checkSendSize(what: string, payloadBytes: number): void {
  if (payloadBytes <= K6_WS_MAX_MESSAGE_BYTES) return;
  throw new RangeError(`${what}: a message of ${payloadBytes} bytes is past ${CAP_TEXT}; it is not sent`);
}

/** What a socket's error handlers see for the `ws` package's `err` on session `s`'s socket to `url`. */
function errorText(err: Error, s: Session | undefined, url: string): string {
  if ((err as Error & { code?: unknown }).code !== "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") return err.message;
  // The package closes the socket with 1009 itself; the run counts the refusal and that close.
  const message = `ws-too-big: a message from ${url} is past ${CAP_TEXT}; the socket is closed (1009)`;
  if (s !== undefined) countSessionError(s, "ws-too-big", message);
  if (totals.counts(performance.now())) totals.closesSent++;
  return message;
}

const totals = openScriptWsStats();
const encoder = new TextEncoder();

const metrics = {
  sessions: new Counter("ws_sessions"),
  sent: new Counter("ws_msgs_sent"),
  received: new Counter("ws_msgs_received"),
  connecting: new Trend("ws_connecting", true),
  duration: new Trend("ws_session_duration", true),
  ping: new Trend("ws_ping", true),
};

interface WsResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string;
}

type Handler = (...args: unknown[]) => unknown;

/** Sends `data` on open socket `ws` (text or binary), counted; past the cap it throws as `what`, unsent. */
function sendMessage(ws: Ws, what: string, data: string | Uint8Array, tags: Record<string, string>): void {
  // A text's bytes only when it may be past the cap: UTF-8 takes at most 3 bytes a UTF-16 unit.
  const bytes = typeof data !== "string"
    ? data.byteLength
    : data.length > K6_WS_MAX_MESSAGE_BYTES / 3
    ? utf8Length(data)
    : 0;
  checkSendSize(what, bytes);
  ws.send(data);
  metrics.sent.add(1, tags);
  if (!totals.counts(performance.now())) return;
  totals.messagesSent++;
  totals.payloadBytesSent += typeof data === "string" ? utf8Length(data) : bytes;
}

function sendPing(ws: Ws, pings: number[]): void {
  const nowMs = performance.now();
  pings.push(nowMs);
  ws.ping();
  if (totals.counts(nowMs)) totals.pingsSent++;
}

function ponged(pings: number[], tags: Record<string, string>): void {
  const nowMs = performance.now();
  const sentMs = pings.shift();
  if (sentMs !== undefined) metrics.ping.add(nowMs - sentMs, tags);
  if (totals.counts(nowMs)) totals.pongsReceived++;
}

/** Counts a received message of socket `tags`: its `data` as the `ws` package gives it. */
function received(data: Uint8Array | Uint8Array[], tags: Record<string, string>): void {
  metrics.received.add(1, tags);
  totals.received(performance.now(), byteLengthOf(data));
}

/** Counts an opened handshake that started at `startMs`; returns when it opened. */
function opened(ws: Ws, startMs: number, compression: string | undefined): number {
  const openMs = performance.now();
  totals.handshake(
    openMs,
    (openMs - startMs) * 1000,
    compression === "deflate",
    ws.extensions.includes("permessage-deflate"),
  );
  return openMs;
}

/** Counts a closed session, its duration since `sinceMs`. */
function closed(code: number, sinceMs: number, tags: Record<string, string>): void {
  totals.closeCode(performance.now(), code);
  metrics.duration.add(performance.now() - sinceMs, tags);
}

/** The params of `what`, each key one the client honours. */
function paramsOf(params: WsParams | null | undefined, what: string): WsParams {
  const given = params ?? {};
  for (const key in given) {
    if (!PARAMS.has(key)) {
      throw new TypeError(`${what}: params.${key} is not supported by loadlab's k6 runtime`);
    }
  }
  return given;
}

/** The `ws` package's client for `url`, where the run sends it, with `params`. */
function client(url: string, protocols: string | string[] | undefined, params: WsParams): Ws {
  return new Ws(current()?.s.route(url) ?? url, protocols, {
    headers: params.headers,
    perMessageDeflate: params.compression === "deflate",
    maxPayload: K6_WS_MAX_MESSAGE_BYTES,
  });
}

class K6Socket {
  readonly #ws: Ws;
  readonly #handlers = new Map<string, Handler[]>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #pings: number[] = [];

  constructor(ws: Ws, readonly tags: Record<string, string>) {
    this.#ws = ws;
  }

  on(event: string, handler: Handler): void {
    const list = this.#handlers.get(event);
    if (list === undefined) this.#handlers.set(event, [handler]);
    else list.push(handler);
  }

  send(data: unknown): void {
    if (this.#ws.readyState === Ws.OPEN) sendMessage(this.#ws, "socket.send", String(data), this.tags);
  }

  sendBinary(data: ArrayBuffer | Uint8Array): void {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    if (this.#ws.readyState === Ws.OPEN) sendMessage(this.#ws, "socket.sendBinary", bytes, this.tags);
  }

  ping(): void {
    if (this.#ws.readyState === Ws.OPEN) sendPing(this.#ws, this.#pings);
  }

  close(code?: number): void {
    if (this.#ws.readyState === Ws.OPEN) {
      this.#ws.close(code ?? 1000);
      if (totals.counts(performance.now())) totals.closesSent++;
    } else if (this.#ws.readyState === Ws.CONNECTING) this.#ws.terminate();
  }

  setTimeout(fn: Handler, delayMs: number): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#call(fn, []);
    }, Number(delayMs) || 0);
    this.#timers.add(timer);
    return timer;
  }

  setInterval(fn: Handler, intervalMs: number): ReturnType<typeof setInterval> {
    // k6 refuses an interval of 0 or less: it would spin.
    if (!(Number(intervalMs) > 0)) throw new TypeError("socket.setInterval: the interval must be > 0 ms");
    const timer = setInterval(() => this.#call(fn, []), Number(intervalMs));
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.#timers.delete(timer);
  }

  clearInterval(timer: ReturnType<typeof setInterval>): void {
    this.clearTimeout(timer);
  }

  emit(event: string, args: unknown[]): void {
    for (const handler of this.#handlers.get(event) ?? []) this.#call(handler, args);
  }

  ponged(): void {
    ponged(this.#pings, this.tags);
  }

  stopTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }

  /** The first error a handler or timer callback threw (connect throws it after the socket closed). */
  thrown: unknown = undefined;

  #call(fn: Handler, args: unknown[]): void {
    try {
      fn.apply(this, args);
    } catch (err) {
      this.thrown ??= err;
      this.stopTimers();
      this.#ws.terminate();
    }
  }
}

/** k6's `ws.connect(url, params?, callback)`: resolves with the handshake's answer once the socket closed. */
export async function connect(
  url: string,
  params?: WsParams | Handler | null,
  callback?: Handler,
): Promise<WsResponse> {
  if (typeof params === "function") callback = params, params = null;
  const given = paramsOf(params, "ws.connect");
  if (typeof callback !== "function") throw new TypeError("ws.connect needs a function that uses the socket");
  const session = current()?.s;
  const ended = session?.ended;
  const ws = client(url, undefined, given);
  const response: WsResponse = { url, status: 0, headers: {}, body: "", error: "" };
  const socket = new K6Socket(ws, { url, ...given.tags });
  const startMs = performance.now();
  let openMs = startMs;
  const stop = () => ws.terminate();
  ended?.addEventListener("abort", stop);
  await new Promise<void>((resolve) => {
    ws.on("upgrade", (res: IncomingMessage) => {
      response.status = 101;
      response.headers = headersOf(res.headers);
    });
    ws.on("unexpected-response", (_req: unknown, res: IncomingMessage) => {
      response.status = res.statusCode ?? 0;
      response.headers = headersOf(res.headers);
      response.error = `websocket: bad handshake (status ${response.status})`;
      res.resume();
      ws.terminate();
    });
    ws.on("open", () => {
      openMs = opened(ws, startMs, given.compression);
      metrics.connecting.add(openMs - startMs, socket.tags);
      metrics.sessions.add(1, socket.tags);
      // As k6: the function runs once connected, then its `open` handlers.
      try {
        callback!.call(undefined, socket);
      } catch (err) {
        socket.thrown = err;
        ws.terminate();
        return;
      }
      socket.emit("open", []);
    });
    ws.on("message", (data: Uint8Array | Uint8Array[], isBinary: boolean) => {
      received(data, socket.tags);
      if (isBinary) socket.emit("binaryMessage", [arrayBufferOf(data)]);
      else socket.emit("message", [String(data)]);
    });
    ws.on("ping", () => socket.emit("ping", []));
    ws.on("pong", () => {
      socket.ponged();
      socket.emit("pong", []);
    });
    ws.on("error", (err: Error) => {
      const message = errorText(err, session, url);
      response.error ||= message;
      if (response.status === 101) socket.emit("error", [{ error: () => message }]);
    });
    ws.on("close", (code: number) => {
      socket.stopTimers();
      if (response.status === 101) {
        closed(code, openMs, socket.tags);
        socket.emit("close", [code]);
      }
      resolve();
    });
  });
  ended?.removeEventListener("abort", stop);
  if (socket.thrown !== undefined) throw socket.thrown;
  // As k6: a connection that never opened is the call's error (the script's line), not a response.
  if (response.status !== 101) throw new Error(`ws.connect ${url}: ${response.error || "no connection"}`);
  return response;
}

type Listener = (event: Record<string, unknown>) => unknown;

/**
 * k6 v1's `WebSocket` (k6/websockets): the browser's API on k6/ws's client. It connects at once; a refused
 * connection is an `error` event, a close other than 1000 too; the iteration ends once it closed, and a
 * listener's throw is the iteration's error.
 */
export class WebSocket {
  protocol = "";
  binaryType = "blob";
  onopen: Listener | null = null;
  onmessage: Listener | null = null;
  onerror: Listener | null = null;
  onclose: Listener | null = null;
  onping: Listener | null = null;
  onpong: Listener | null = null;
  readonly #ws: Ws;
  readonly #tags: Record<string, string>;
  readonly #listeners: [string, Listener][] = [];
  readonly #pings: number[] = [];
  readonly #ctx: VuContext | undefined;
  #thrown: unknown = undefined;

  constructor(readonly url: string, protocols?: string | string[] | null, params?: WsParams | null) {
    if (!/^wss?:\/\//.test(String(url))) {
      throw new SyntaxError(`WebSocket needs a ws: or wss: URL, not ${url}`);
    }
    const given = paramsOf(params, "new WebSocket");
    const ctx = this.#ctx = current();
    const ws = this.#ws = client(url, protocols ?? undefined, given);
    const tags = this.#tags = { url, ...given.tags };
    const startMs = performance.now();
    let openMs = 0, error = "";
    const stop = () => ws.terminate();
    if (ctx !== undefined) ctx.timers++, ctx.s.ended.addEventListener("abort", stop, { once: true });
    ws.on("open", () => {
      openMs = opened(ws, startMs, given.compression);
      this.protocol = ws.protocol;
      this.#emit("open", {});
    });
    ws.on("message", (data: Uint8Array | Uint8Array[], isBinary: boolean) => {
      received(data, tags);
      const buffer = isBinary ? arrayBufferOf(data) : null;
      const payload = buffer === null
        ? String(data)
        : this.binaryType === "arraybuffer"
        ? buffer
        : new Blob([buffer]);
      this.#emit("message", { data: payload });
    });
    ws.on("ping", () => this.#emit("ping", {}));
    ws.on("pong", () => {
      ponged(this.#pings, tags);
      this.#emit("pong", {});
    });
    ws.on("unexpected-response", (_req: unknown, res: IncomingMessage) => {
      error = `websocket: bad handshake (status ${res.statusCode})`;
      res.resume();
      ws.terminate();
    });
    ws.on("error", (err: Error) => error ||= errorText(err, ctx?.s, url));
    ws.on("close", (code: number, reason: Uint8Array) => {
      // As k6: a session and its connecting time counted whether or not it opened.
      metrics.connecting.add((openMs || performance.now()) - startMs, tags);
      metrics.sessions.add(1, tags);
      // As k6: the session's duration from before its handshake.
      if (openMs > 0) closed(code, startMs, tags);
      if (error !== "" || code !== 1000) this.#emit("error", { error: error || `websocket: close ${code}` });
      this.#emit("close", { code, reason: String(reason) });
      if (ctx === undefined) return;
      ctx.s.ended.removeEventListener("abort", stop);
      releaseHold(ctx, this.#thrown);
    });
  }

  get readyState(): number {
    return this.#ws.readyState;
  }

  get bufferedAmount(): number {
    return this.#ws.bufferedAmount;
  }

  addEventListener(type: string, listener: Listener): void {
    if (typeof listener !== "function") throw new TypeError(`the listener of ${type} is not a function`);
    this.#listeners.push([type, listener]);
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#open();
    if (typeof data === "string") return sendMessage(this.#ws, "WebSocket.send", data, this.#tags);
    const bytes = data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : null;
    if (bytes === null) throw new TypeError("WebSocket.send takes a string, an ArrayBuffer or a typed array");
    sendMessage(this.#ws, "WebSocket.send", bytes, this.#tags);
  }

  ping(): void {
    this.#open();
    sendPing(this.#ws, this.#pings);
    // k6/websockets counts every frame it writes as a message sent, pings and closes too.
    metrics.sent.add(1, this.#tags);
  }

  close(code = 1000, reason = ""): void {
    if (this.#ws.readyState >= Ws.CLOSING) return;
    if (code !== 1000 && !(code >= 3000 && code <= 4999)) {
      throw new RangeError(`InvalidAccessError: the close code must be 1000 or 3000 to 4999, not ${code}`);
    }
    if (this.#ws.readyState === Ws.CONNECTING) return this.#ws.terminate();
    this.#ws.close(code, reason);
    metrics.sent.add(1, this.#tags);
    if (totals.counts(performance.now())) totals.closesSent++;
  }

  #open(): void {
    if (this.#ws.readyState !== Ws.OPEN) throw new Error("InvalidStateError: the WebSocket is not open");
  }

  #emit(type: string, fields: Record<string, unknown>): void {
    const event = { type, target: this, timestamp: Date.now(), ...fields };
    const own = this[`on${type}` as "onopen"];
    // The socket's events come from its own I/O: its iteration is made current for its listeners.
    const outer = context();
    back(this.#ctx);
    try {
      if (typeof own === "function") own.call(this, event);
      for (const [t, listener] of this.#listeners) if (t === type) listener.call(this, event);
    } catch (err) {
      this.#thrown ??= err;
      this.#ws.terminate();
    } finally {
      back(outer);
    }
  }
}

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    // k6 writes header names canonically (`Sec-Websocket-Accept`).
    const canonical = name.replace(/(^|-)([a-z])/g, (_, dash, c) => dash + c.toUpperCase());
    out[canonical] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function utf8Length(text: string): number {
  // deno-lint-ignore no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

function byteLengthOf(data: Uint8Array | Uint8Array[]): number {
  return Array.isArray(data) ? data.reduce((n, p) => n + p.byteLength, 0) : data.byteLength;
}

function arrayBufferOf(data: Uint8Array | Uint8Array[]): ArrayBuffer {
  return concatBytes(Array.isArray(data) ? data : [data]).buffer;
}

export default { connect };
