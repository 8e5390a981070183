/**
 * @module
 * k6's legacy `k6/ws` for converted scripts: `ws.connect(url, params, (socket) => { ... })` opens a
 * WebSocket, calls the function with the socket once the handshake answered 101 (else throws, as k6
 * does, with the status), dispatches `open`,
 * `message`, `binaryMessage`, `ping`, `pong`, `error` and `close` to the handlers `socket.on` set, runs
 * the socket's `setTimeout`/`setInterval` callbacks, and returns k6's response (`status`, `headers`,
 * `url`, `error`) once the socket closed; the converted script awaits it, as k6's VU blocked on it. In
 * a session the socket goes where the run sends the URL's origin (`s.route`: the target for its own
 * origin or one routed to it, `ws:`/`wss:` after its scheme), as http.ts's requests; it closes when the run
 * ends. The client is the `ws` package beside the session's connection, not loadlab's engine: its messages
 * count in k6's own WebSocket metrics (`ws_sessions`, `ws_msgs_sent`, `ws_msgs_received`, `ws_connecting`,
 * `ws_session_duration`, `ws_ping`) in k6's summary, and in the run's `ws` section as a flow's ws steps
 * count there (handshakes and their time, messages and payload bytes each way, pings, pongs, closes;
 * runner/script/sessions/ws_stats.ts); as under k6, not in the run's HTTP requests or endpoints. A message
 * past 16 MiB either way is refused (ws_cap.ts).
 */
// By its npm address, not the import map: converted scripts are checked from the cache folder.
// deno-lint-ignore no-import-prefix
import WebSocket from "npm:ws@^8.18.0";
import type { IncomingMessage } from "node:http";
import { current } from "./runtime.ts";
import { Counter, Trend } from "./metrics.ts";
import { openScriptWsStats } from "../sessions/ws_stats.ts";
import { checkSendSize, K6_WS_MAX_MESSAGE_BYTES, tooBig, tooBigReceived } from "./ws_cap.ts";

/** k6's `ws.connect` params (those honoured; another key is refused). */
export interface WsParams {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  compression?: string;
}

const PARAMS = new Set(["headers", "tags", "compression"]);

/** The run's ws totals in this worker (handshakes, messages and bytes each way, pings, closes). */
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

/** What `ws.connect` returns: the handshake's answer. */
export interface WsResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string;
}

type Handler = (...args: unknown[]) => unknown;

/** The socket the script's function receives. */
export class K6Socket {
  readonly #ws: WebSocket;
  readonly #handlers = new Map<string, Handler[]>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #pings: number[] = [];

  constructor(ws: WebSocket) {
    this.#ws = ws;
  }

  /** Adds a handler of `event` (several per event run in order). */
  on(event: string, handler: Handler): void {
    const list = this.#handlers.get(event);
    if (list === undefined) this.#handlers.set(event, [handler]);
    else list.push(handler);
  }

  send(data: unknown): void {
    const text = String(data);
    // Bytes only for a text that may be past the cap: UTF-8 takes at most 3 bytes a UTF-16 unit.
    if (text.length > K6_WS_MAX_MESSAGE_BYTES / 3) checkSendSize("socket.send", utf8Length(text));
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(text);
    metrics.sent.add(1);
    if (totals.counts(performance.now())) totals.messagesSent++, totals.payloadBytesSent += utf8Length(text);
  }

  sendBinary(data: ArrayBuffer | Uint8Array): void {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    checkSendSize("socket.sendBinary", bytes.byteLength);
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(bytes);
    metrics.sent.add(1);
    if (totals.counts(performance.now())) totals.messagesSent++, totals.payloadBytesSent += bytes.byteLength;
  }

  ping(): void {
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    const nowMs = performance.now();
    this.#pings.push(nowMs);
    this.#ws.ping();
    if (totals.counts(nowMs)) totals.pingsSent++;
  }

  close(code?: number): void {
    if (this.#ws.readyState === WebSocket.OPEN) {
      this.#ws.close(code ?? 1000);
      if (totals.counts(performance.now())) totals.closesSent++;
    } else if (this.#ws.readyState === WebSocket.CONNECTING) this.#ws.terminate();
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

  /** Runs the handlers of `event`; a handler's throw closes the socket and becomes connect's throw. */
  emit(event: string, args: unknown[]): void {
    for (const handler of this.#handlers.get(event) ?? []) this.#call(handler, args);
  }

  /** A pong came: the round trip of the oldest ping unanswered. */
  ponged(): void {
    const nowMs = performance.now();
    const sentMs = this.#pings.shift();
    if (sentMs !== undefined) metrics.ping.add(nowMs - sentMs);
    if (totals.counts(nowMs)) totals.pongsReceived++;
  }

  /** The socket is gone: its timers stop. */
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

/** Where the socket connects: in a session, where the run sends the URL's origin (the URL's own else). */
function targetUrl(url: string): string {
  return current()?.s.route(url) ?? url;
}

/** k6's `ws.connect(url, params?, callback)`: resolves with the handshake's answer once the socket closed. */
export async function connect(
  url: string,
  params?: WsParams | Handler | null,
  callback?: Handler,
): Promise<WsResponse> {
  if (typeof params === "function") callback = params, params = null;
  const given = params ?? {};
  for (const key in given) {
    if (!PARAMS.has(key)) throw new TypeError(`ws params.${key} is not supported by loadlab's k6 runtime`);
  }
  if (typeof callback !== "function") throw new TypeError("ws.connect needs a function that uses the socket");
  const session = current()?.s;
  const ended = session?.ended;
  const ws = new WebSocket(targetUrl(url), {
    headers: given.headers,
    perMessageDeflate: given.compression === "deflate",
    maxPayload: K6_WS_MAX_MESSAGE_BYTES,
  });
  const response: WsResponse = { url, status: 0, headers: {}, body: "", error: "" };
  const socket = new K6Socket(ws);
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
      openMs = performance.now();
      metrics.connecting.add(openMs - startMs);
      metrics.sessions.add(1);
      const deflate = given.compression === "deflate";
      totals.handshake(
        openMs,
        (openMs - startMs) * 1000,
        deflate,
        ws.extensions.includes("permessage-deflate"),
      );
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
      metrics.received.add(1);
      totals.received(performance.now(), byteLengthOf(data));
      if (isBinary) socket.emit("binaryMessage", [arrayBufferOf(data)]);
      else socket.emit("message", [String(data)]);
    });
    ws.on("ping", () => socket.emit("ping", []));
    ws.on("pong", () => {
      socket.ponged();
      socket.emit("pong", []);
    });
    ws.on("error", (err: Error) => {
      // The package closes the socket with 1009 itself; the run counts the refusal and that close.
      const message = tooBig(err) ? tooBigReceived(session, url) : err.message;
      if (tooBig(err) && totals.counts(performance.now())) totals.closesSent++;
      response.error ||= message;
      if (response.status === 101) socket.emit("error", [{ error: () => message }]);
    });
    ws.on("close", (code: number) => {
      socket.stopTimers();
      if (response.status === 101) totals.closeCode(performance.now(), code);
      if (response.status === 101) {
        metrics.duration.add(performance.now() - openMs);
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

/** A text message's payload bytes (UTF-8), without a copy for ASCII. */
function utf8Length(text: string): number {
  // deno-lint-ignore no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).byteLength;
}

function byteLengthOf(data: Uint8Array | Uint8Array[]): number {
  return Array.isArray(data) ? data.reduce((n, p) => n + p.byteLength, 0) : data.byteLength;
}

function arrayBufferOf(data: unknown): ArrayBuffer {
  const parts = Array.isArray(data) ? data : [data];
  const bytes = new Uint8Array(parts.reduce((n: number, p: Uint8Array) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts as Uint8Array[]) bytes.set(p, at), at += p.byteLength;
  return bytes.buffer;
}

export default { connect };
