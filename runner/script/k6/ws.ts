/**
 * @module
 * k6's legacy `k6/ws` and k6 v1's `k6/websockets` on the `ws` package, counted in k6's `ws_*` metrics and
 * the run's `ws` section. A message is capped at 16 MiB each way: an incoming one closes with 1009.
 */
// By its npm address, not the import map: converted scripts are checked from the cache folder.
// deno-lint-ignore no-import-prefix
import Ws from "npm:ws@^8.18.0";
import type { IncomingMessage } from "node:http";
import { Buffer } from "node:buffer";
import { current, onLoop, releaseHold, requestDefaults, type VuContext } from "./runtime.ts";
import { canonicalHeader } from "./response.ts";
import { Counter, Trend } from "./metrics.ts";
import { countSessionError, openScriptWsStats } from "../sessions/ws_stats.ts";
import type { Session } from "../session.ts";
import { concatBytes } from "../../../system/copy_bytes.ts";
import { CookieJar } from "./cookie_jars.ts";
import { refuseUnknown } from "./http.ts";
import timers from "./timers.ts";

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

type Handler = (...args: unknown[]) => unknown;

/** Sends `data` on open socket `ws` (text or binary), counted; returns its bytes; past the cap it throws. */
function sendMessage(ws: Ws, what: string, data: string | Uint8Array, tags: Record<string, string>): number {
  const bytes = typeof data === "string" ? Buffer.byteLength(data) : data.byteLength;
  if (bytes > K6_WS_MAX_MESSAGE_BYTES) {
    throw new RangeError(`${what}: a message of ${bytes} bytes is past ${CAP_TEXT}; it is not sent`);
  }
  ws.send(data);
  metrics.sent.add(1, tags);
  totals.sent(performance.now(), bytes);
  return bytes;
}

/** The bytes of an ArrayBuffer, a typed array or DataView, or a k6 Blob; null for anything else. */
function bytesOf(data: unknown): Uint8Array | null {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return data instanceof Blob ? blobBytes.get(data)! : null;
}

const blobBytes = new WeakMap<Blob, Uint8Array>();

/** k6/websockets' `Blob`: the platform's, its bytes kept for a send, which k6 makes at once. */
export class Blob extends globalThis.Blob {
  constructor(parts: Iterable<unknown> = [], options?: BlobPropertyBag) {
    const bytes = concatBytes(Array.from(parts, (part) => {
      const own = typeof part === "string" ? encoder.encode(part) : bytesOf(part);
      if (own === null) throw new TypeError(`failed to process [blobParts]: unsupported type ${typeof part}`);
      return own;
    }));
    super([bytes], options);
    blobBytes.set(this, bytes);
  }
}

/** Runs `steps` one after another, each after the promise the one before returned (a listener that waits). */
function inOrder(steps: Array<() => unknown>, from = 0): unknown {
  for (let k = from; k < steps.length; k++) {
    const out = steps[k]();
    if (out instanceof Promise) return out.then(() => inOrder(steps, k + 1));
  }
}

function sendPing(ws: Ws, pings: number[]): void {
  const nowMs = performance.now();
  pings.push(nowMs);
  ws.ping();
  if (totals.counts(nowMs)) totals.pingsSent++;
}

/** k6 v1's `WebSocket` (k6/ws's socket extends it): a refusal or a close but 1000 is an `error`. */
export class WebSocket {
  protocol = "";
  binaryType = "blob";
  #buffered = 0;
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
  protected readonly ctx: VuContext | undefined;
  /** The handshake's answer (status 101 once open) or why it failed. */
  readonly response = { url: "", status: 0, headers: {} as Record<string, string>, body: "", error: "" };
  /** The first error a listener threw. */
  thrown: unknown = undefined;
  readonly closed: Promise<void>;

  constructor(readonly url: string, protocols?: string | string[] | null, params?: WsParams | null) {
    const legacy = new.target !== WebSocket;
    if (!legacy && !/^wss?:\/\//.test(String(url))) {
      throw new SyntaxError(`WebSocket needs a ws: or wss: URL, not ${url}`);
    }
    const given = params ?? {};
    refuseUnknown(given, PARAMS, "params");
    const headers = { ...given.headers }, jar = given.jar;
    const ctx = this.ctx = current(), routed = ctx?.s.route(url) ?? url;
    // The jar's cookies for the URL's http: twin, as k6's handshake sends them; without one, the VU's.
    const cookies = jar instanceof CookieJar
      ? jar.cookieHeader(url.replace(/^ws/, "http"))
      : ctx?.s.cookies.header(new URL(routed).pathname);
    if (cookies) headers.Cookie = headers.Cookie === undefined ? cookies : `${headers.Cookie}; ${cookies}`;
    const ws = this.ws = new Ws(routed, protocols ?? undefined, {
      headers,
      perMessageDeflate: given.compression === "deflate",
      maxPayload: K6_WS_MAX_MESSAGE_BYTES,
    });
    const tags = this.tags = { url, ...given.tags };
    const response = this.response;
    const startMs = performance.now();
    let openMs = 0, done = () => {};
    this.closed = new Promise((resolve) => done = resolve);
    const stop = () => ws.terminate();
    if (ctx !== undefined && !legacy) ctx.pending++;
    ctx?.s.ended.addEventListener("abort", stop, { once: true });
    ws.on("upgrade", (res: IncomingMessage) => {
      response.status = 101;
      response.url = url;
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
    // The package's default binaryType ("nodebuffer") hands over a message whole, in one buffer.
    ws.on("message", (data: Uint8Array, isBinary: boolean) => {
      totals.received(performance.now(), data.byteLength);
      this.deliver("message", { data: isBinary ? new Uint8Array(data).buffer : String(data), origin: url });
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
      // As k6: a session and its connecting time counted whether or not it opened, its duration from before
      // its handshake (k6/websockets' only once it opened).
      metrics.connecting.add((openMs || performance.now()) - startMs, tags);
      metrics.sessions.add(1, tags);
      if (openMs > 0) totals.closeCode(performance.now(), code);
      if (openMs > 0 || legacy) metrics.duration.add(performance.now() - startMs, tags);
      const erred = openMs > 0 && response.error !== "";
      if (!legacy && !erred && (openMs === 0 || code !== 1000)) {
        this.deliver("error", { error: response.error || `websocket: close ${code}` });
      }
      this.deliver("close", { code, reason: String(reason) });
      onLoop(ctx, () => {
        ctx?.s.ended.removeEventListener("abort", stop);
        if (ctx !== undefined && !legacy) releaseHold(ctx, this.thrown);
        done();
      });
    });
  }

  /** The extensions the server agreed, as k6 lists its answer's `Sec-WebSocket-Extensions` fields. */
  get extensions(): string[] {
    return this.ws.extensions === "" ? [] : [this.ws.extensions];
  }

  get readyState(): number {
    return this.ws.readyState;
  }

  /** As k6's: the bytes sent until the VU's loop turns (it hears they were written). */
  get bufferedAmount(): number {
    return this.#buffered;
  }

  addEventListener(type: string, listener: Handler): void {
    if (typeof listener !== "function") throw new TypeError(`the listener of ${type} is not a function`);
    this.listeners.push([type, listener]);
  }

  send(data: unknown): void {
    this.#open();
    const message = typeof data === "string" ? data : bytesOf(data);
    if (message === null) {
      throw new TypeError("WebSocket.send takes a string, an ArrayBuffer, a view or a Blob");
    }
    const bytes = sendMessage(this.ws, "WebSocket.send", message, this.tags);
    this.#buffered += bytes;
    onLoop(this.ctx, () => this.#buffered -= bytes);
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

  /** Hands event `type` to its listeners on the VU's loop; its iteration is current for them. */
  protected deliver(type: string, fields: Record<string, unknown>): void {
    onLoop(this.ctx, () => this.dispatch(type, fields));
  }

  /** As k6: a message is counted and handed over only while open (none after `close()`), per binaryType. */
  protected messageData(data: unknown): unknown {
    if (this.ws.readyState !== Ws.OPEN) return null;
    metrics.received.add(1, this.tags);
    return typeof data === "string" || this.binaryType === "arraybuffer" ? data : new Blob([data]);
  }

  protected dispatch(type: string, fields: Record<string, unknown>): unknown {
    if (type === "message" && (fields = { ...fields, data: this.messageData(fields.data) }).data === null) {
      return;
    }
    const event = { type, target: this, timestamp: Date.now(), ...fields };
    const own = this[`on${type}` as "onopen"];
    const fns = typeof own === "function" ? [own] : [];
    for (const [t, listener] of this.listeners) if (t === type) fns.push(listener);
    return inOrder(fns.map((fn) => () => this.call(fn, [event])));
  }

  /** Runs a listener; its throw (or its promise's rejection) is the socket's first error and closes it. */
  protected call(fn: Handler, args: unknown[]): unknown {
    try {
      const out = fn.apply(this, args);
      return out instanceof Promise ? out.catch((err) => this.fail(err)) : out;
    } catch (err) {
      this.fail(err);
    }
  }

  protected fail(err: unknown): void {
    this.thrown ??= err;
    this.ws.terminate();
  }
}

// The ready states by name, on the class and its sockets, as the browser's (`ws.readyState === ws.OPEN`).
for (const [state, name] of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].entries()) {
  for (const on of [WebSocket, WebSocket.prototype]) Object.defineProperty(on, name, { value: state });
}

type Timer = ReturnType<typeof setTimeout>;

/** k6/ws's socket: `on(event)` handlers with its own arguments; sends on a socket not open are dropped. */
class K6Socket extends WebSocket {
  readonly #timers = new Set<Timer>();
  #closed = false;

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

  /** As k6's: 1001 unless given; its close listeners get that code at once, and no message after. */
  override close(code = 1001): void {
    if (this.ws.readyState === Ws.OPEN) {
      this.ws.close(code);
      if (totals.counts(performance.now())) totals.closesSent++;
      this.deliver("close", { code });
    } else if (this.ws.readyState === Ws.CONNECTING) this.ws.terminate();
  }

  // Its timers are k6/timers' (on the VU's loop), each cleared when the socket closes.
  setTimeout(fn: Handler, delayMs: number): Timer {
    return this.#own(timers.setTimeout(() => this.call(fn, []), delayMs));
  }

  setInterval(fn: Handler, intervalMs: number): Timer {
    // k6 refuses an interval of 0 or less: it would spin.
    if (!(Number(intervalMs) > 0)) throw new TypeError("socket.setInterval: the interval must be > 0 ms");
    return this.#own(timers.setInterval(() => this.call(fn, []), intervalMs));
  }

  #own(timer: Timer): Timer {
    this.#timers.add(timer);
    return timer;
  }

  clearTimeout(timer: Timer): void {
    timers.clearTimeout(timer);
    this.#timers.delete(timer);
  }

  /** k6/ws's events: the function first once open, a message's text or bytes, the close's code once. */
  protected override dispatch(type: string, fields: Record<string, unknown>): unknown {
    if (type === "close") {
      if (this.#closed || this.response.status !== 101) return;
      this.#closed = true;
      this.#stopTimers();
    }
    const data = type === "message" ? this.messageData(fields.data) : undefined;
    if (data === null) return;
    const [event, args] = type === "message"
      ? [typeof data === "string" ? "message" : "binaryMessage", [data]]
      : type === "error"
      ? [type, [{ error: () => fields.error }]]
      : [type, type === "close" ? [fields.code] : []];
    const handlers = () =>
      inOrder(
        this.listeners.filter(([t]) => t === event).map(([, handler]) => () => this.call(handler, args)),
      );
    if (type !== "open") return handlers();
    return inOrder([() => this.call(this.callback, [this]), () => this.thrown === undefined && handlers()]);
  }

  protected override fail(err: unknown): void {
    super.fail(err);
    this.#stopTimers();
  }

  #stopTimers(): void {
    for (const timer of this.#timers) timers.clearTimeout(timer);
    this.#timers.clear();
  }
}
Object.defineProperty(K6Socket.prototype, "clearInterval", { value: K6Socket.prototype.clearTimeout });

/** k6's `ws.connect(url, params?, callback)`: resolves with the handshake's answer once the socket closed. */
export async function connect(
  url: string,
  params?: WsParams | Handler | null,
  callback?: Handler,
): Promise<WebSocket["response"]> {
  if (typeof params === "function") callback = params, params = null;
  if (typeof callback !== "function") throw new TypeError("ws.connect needs a function that uses the socket");
  const ended = current()?.s.ended, socket = new K6Socket(url, params ?? null, callback);
  await socket.closed;
  // k6 interrupts an iteration the run's end cuts in its socket: the script runs no further.
  if (ended?.aborted) return new Promise<never>(() => {});
  if (socket.thrown !== undefined) throw socket.thrown;
  // As k6: a connection that never opened is a response with its error (no URL), thrown with `throw: true`.
  const { response } = socket;
  if (response.status !== 101 && requestDefaults.throw) {
    throw new Error(`ws.connect ${url}: ${response.error || "no connection"}`);
  }
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

export default { connect };
