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
import { canonicalHeader } from "./response.ts";
import { Counter, Trend } from "./metrics.ts";
import { countSessionError, openScriptWsStats } from "../sessions/ws_stats.ts";
import type { Session } from "../session.ts";
import { concatBytes } from "../../../system/copy_bytes.ts";
import { CookieJar } from "./cookie_jars.ts";

interface WsParams {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  compression?: string;
  jar?: unknown;
}

const PARAMS = new Set(["headers", "tags", "compression", "jar"]);

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

/**
 * k6 v1's `WebSocket` (k6/websockets): the browser's API on the `ws` package. It connects at once; a refused
 * connection is an `error` event, a close other than 1000 too; the iteration ends once it closed, and a
 * listener's throw is the iteration's error. k6/ws's socket is one with that module's events and counts.
 */
export class WebSocket {
  protocol = "";
  binaryType = "blob";
  onopen: Handler | null = null;
  onmessage: Handler | null = null;
  onerror: Handler | null = null;
  onclose: Handler | null = null;
  onping: Handler | null = null;
  onpong: Handler | null = null;
  protected readonly ws: Ws;
  protected readonly tags: Record<string, string>;
  protected readonly pings: number[] = [];
  protected readonly listeners: [string, Handler][] = [];
  readonly #ctx: VuContext | undefined;
  /** The handshake's answer (status 101 once open) or why it failed. */
  readonly response: WsResponse;
  /** The first error a listener threw. */
  thrown: unknown = undefined;
  /** Settles once the socket closed. */
  readonly closed: Promise<void>;

  constructor(readonly url: string, protocols?: string | string[] | null, params?: WsParams | null) {
    const legacy = new.target !== WebSocket;
    if (!legacy && !/^wss?:\/\//.test(String(url))) {
      throw new SyntaxError(`WebSocket needs a ws: or wss: URL, not ${url}`);
    }
    const given = params ?? {};
    for (const key in given) {
      if (!PARAMS.has(key)) throw new TypeError(`params.${key} is not supported by loadlab's k6 runtime`);
    }
    const headers = { ...given.headers }, jar = given.jar;
    // The jar's cookies for the URL's http: twin, as k6's handshake sends them.
    if (jar instanceof CookieJar) jar.addCookies(url.replace(/^ws/, "http"), headers, headers.Cookie);
    const ctx = this.#ctx = current();
    const ws = this.ws = new Ws(ctx?.s.route(url) ?? url, protocols ?? undefined, {
      headers,
      perMessageDeflate: given.compression === "deflate",
      maxPayload: K6_WS_MAX_MESSAGE_BYTES,
    });
    const tags = this.tags = { url, ...given.tags };
    const response = this.response = { url, status: 0, headers: {}, body: "", error: "" };
    const startMs = performance.now();
    let openMs = 0, done = () => {};
    this.closed = new Promise((resolve) => done = resolve);
    const stop = () => ws.terminate();
    if (ctx !== undefined && !legacy) ctx.pending++;
    ctx?.s.ended.addEventListener("abort", stop, { once: true });
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
      openMs = performance.now();
      const deflated = ws.extensions.includes("permessage-deflate");
      totals.handshake(openMs, (openMs - startMs) * 1000, given.compression === "deflate", deflated);
      this.protocol = ws.protocol;
      this.deliver("open", {});
    });
    ws.on("message", (data: Uint8Array | Uint8Array[], isBinary: boolean) => {
      metrics.received.add(1, tags);
      totals.received(performance.now(), byteLengthOf(data));
      const buffer = isBinary ? arrayBufferOf(data) : null;
      const payload = buffer === null
        ? String(data)
        : this.binaryType === "arraybuffer"
        ? buffer
        : new Blob([buffer]);
      this.deliver("message", { data: payload });
    });
    ws.on("ping", () => this.deliver("ping", {}));
    ws.on("pong", () => {
      const nowMs = performance.now(), sentMs = this.pings.shift();
      if (sentMs !== undefined) metrics.ping.add(nowMs - sentMs, tags);
      if (totals.counts(nowMs)) totals.pongsReceived++;
      this.deliver("pong", {});
    });
    ws.on("error", (err: Error) => {
      response.error ||= errorText(err, ctx?.s, url);
      if (openMs > 0) this.deliver("error", { error: response.error });
    });
    ws.on("close", (code: number, reason: Uint8Array) => {
      // As k6/websockets: a session and its connecting time counted whether or not it opened, its duration
      // from before its handshake; k6/ws counts only sessions that opened, from then.
      if (openMs > 0 || !legacy) {
        metrics.connecting.add((openMs || performance.now()) - startMs, tags);
        metrics.sessions.add(1, tags);
      }
      if (openMs > 0) {
        totals.closeCode(performance.now(), code);
        metrics.duration.add(performance.now() - (legacy ? openMs : startMs), tags);
      }
      const erred = openMs > 0 && response.error !== "";
      if (!legacy && !erred && (openMs === 0 || code !== 1000)) {
        this.deliver("error", { error: response.error || `websocket: close ${code}` });
      }
      this.deliver("close", { code, reason: String(reason) });
      ctx?.s.ended.removeEventListener("abort", stop);
      if (ctx !== undefined && !legacy) releaseHold(ctx, this.thrown);
      done();
    });
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  addEventListener(type: string, listener: Handler): void {
    if (typeof listener !== "function") throw new TypeError(`the listener of ${type} is not a function`);
    this.listeners.push([type, listener]);
  }

  send(data: string | ArrayBuffer | ArrayBufferView): void {
    this.#open();
    if (typeof data === "string") return sendMessage(this.ws, "WebSocket.send", data, this.tags);
    const bytes = data instanceof ArrayBuffer
      ? new Uint8Array(data)
      : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : null;
    if (bytes === null) throw new TypeError("WebSocket.send takes a string, an ArrayBuffer or a typed array");
    sendMessage(this.ws, "WebSocket.send", bytes, this.tags);
  }

  ping(): void {
    this.#open();
    sendPing(this.ws, this.pings);
    // k6/websockets counts every frame it writes as a message sent, pings and closes too.
    metrics.sent.add(1, this.tags);
  }

  close(code = 1000, reason = ""): void {
    if (this.ws.readyState >= Ws.CLOSING) return;
    if (code !== 1000 && !(code >= 3000 && code <= 4999)) {
      throw new RangeError(`InvalidAccessError: the close code must be 1000 or 3000 to 4999, not ${code}`);
    }
    if (this.ws.readyState === Ws.CONNECTING) return this.ws.terminate();
    this.ws.close(code, reason);
    metrics.sent.add(1, this.tags);
    if (totals.counts(performance.now())) totals.closesSent++;
  }

  #open(): void {
    if (this.ws.readyState !== Ws.OPEN) throw new Error("InvalidStateError: the WebSocket is not open");
  }

  protected deliver(type: string, fields: Record<string, unknown>): void {
    const event = { type, target: this, timestamp: Date.now(), ...fields };
    const own = this[`on${type}` as "onopen"];
    if (typeof own === "function") this.call(own, [event]);
    for (const [t, listener] of this.listeners) if (t === type) this.call(listener, [event]);
  }

  /** Runs a listener as its iteration's code; its throw is the socket's first error and closes it. */
  protected call(fn: Handler, args: unknown[]): void {
    // The socket's events come from its own I/O: its iteration is made current for its listeners.
    const outer = context();
    back(this.#ctx);
    try {
      fn.apply(this, args);
    } catch (err) {
      this.thrown ??= err;
      this.ws.terminate();
    } finally {
      back(outer);
    }
  }
}

type Timer = ReturnType<typeof setTimeout>;

/** k6/ws's socket: `on(event)` handlers with its own arguments; sends on a socket not open are dropped. */
class K6Socket extends WebSocket {
  readonly #timers = new Set<Timer>();

  constructor(url: string, params: WsParams | null, readonly callback: Handler) {
    super(url, null, params);
    this.binaryType = "arraybuffer";
  }

  on(event: string, handler: Handler): void {
    this.addEventListener(event, handler);
  }

  override send(data: unknown): void {
    if (this.ws.readyState === Ws.OPEN) sendMessage(this.ws, "socket.send", String(data), this.tags);
  }

  sendBinary(data: ArrayBuffer | Uint8Array): void {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    if (this.ws.readyState === Ws.OPEN) sendMessage(this.ws, "socket.sendBinary", bytes, this.tags);
  }

  override ping(): void {
    if (this.ws.readyState === Ws.OPEN) sendPing(this.ws, this.pings);
  }

  override close(code?: number): void {
    if (this.ws.readyState === Ws.OPEN) {
      this.ws.close(code ?? 1000);
      if (totals.counts(performance.now())) totals.closesSent++;
    } else if (this.ws.readyState === Ws.CONNECTING) this.ws.terminate();
  }

  setTimeout(fn: Handler, delayMs: number): Timer {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.call(fn, []);
    }, Number(delayMs) || 0);
    this.#timers.add(timer);
    return timer;
  }

  setInterval(fn: Handler, intervalMs: number): Timer {
    // k6 refuses an interval of 0 or less: it would spin.
    if (!(Number(intervalMs) > 0)) throw new TypeError("socket.setInterval: the interval must be > 0 ms");
    const timer = setInterval(() => this.call(fn, []), Number(intervalMs));
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(timer: Timer): void {
    clearTimeout(timer);
    this.#timers.delete(timer);
  }

  clearInterval(timer: Timer): void {
    this.clearTimeout(timer);
  }

  /** k6/ws's events: the function first once open, a message's text or bytes, the close's code alone. */
  protected override deliver(type: string, fields: Record<string, unknown>): void {
    if (type === "open") this.call(this.callback, [this]);
    if (type === "close") this.#stopTimers();
    if (type === "open" ? this.thrown !== undefined : type === "close" && this.response.status !== 101) {
      return;
    }
    const data = fields.data;
    const [event, args] = type === "message"
      ? [typeof data === "string" ? "message" : "binaryMessage", [data]]
      : type === "error"
      ? [type, [{ error: () => fields.error }]]
      : [type, type === "close" ? [fields.code] : []];
    for (const [t, handler] of this.listeners) if (t === event) this.call(handler, args);
  }

  protected override call(fn: Handler, args: unknown[]): void {
    super.call(fn, args);
    if (this.thrown !== undefined) this.#stopTimers();
  }

  #stopTimers(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
  }
}

/** k6's `ws.connect(url, params?, callback)`: resolves with the handshake's answer once the socket closed. */
export async function connect(
  url: string,
  params?: WsParams | Handler | null,
  callback?: Handler,
): Promise<WsResponse> {
  if (typeof params === "function") callback = params, params = null;
  if (typeof callback !== "function") throw new TypeError("ws.connect needs a function that uses the socket");
  const socket = new K6Socket(url, params ?? null, callback);
  await socket.closed;
  if (socket.thrown !== undefined) throw socket.thrown;
  // As k6: a connection that never opened is the call's error (the script's line), not a response.
  const { response } = socket;
  if (response.status !== 101) throw new Error(`ws.connect ${url}: ${response.error || "no connection"}`);
  return response;
}

function headersOf(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[canonicalHeader(name)] = Array.isArray(value) ? value.join(", ") : value;
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
