/**
 * @module
 * k6's legacy `k6/ws`: `ws.connect` opens a WebSocket (the `ws` package) where the run sends the URL's origin
 * and resolves once it closed; its messages count in k6's `ws_*` metrics and the run's `ws` section. A
 * message is capped at 16 MiB each way (the package's default: 100 MiB; k6/ws cannot raise it, so it is
 * above flows' 1 MiB): an incoming one closes the socket with 1009 (`ws-too-big`), an outgoing one throws.
 */
// By its npm address, not the import map: converted scripts are checked from the cache folder.
// deno-lint-ignore no-import-prefix
import WebSocket from "npm:ws@^8.18.0";
import type { IncomingMessage } from "node:http";
import { current } from "./runtime.ts";
import { canonicalHeader } from "./response.ts";
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

function tooBig(err: Error): boolean {
  return (err as Error & { code?: unknown }).code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH";
}

/** What `on('error')` sees for a message past the cap, counted as `ws-too-big` in session `s`'s run. */
function tooBigReceived(s: Session | undefined, url: string): string {
  const message = `ws-too-big: a message from ${url} is past ${CAP_TEXT}; the socket is closed (1009)`;
  if (s !== undefined) countSessionError(s, "ws-too-big", message);
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

class K6Socket {
  readonly #ws: WebSocket;
  readonly #handlers = new Map<string, Handler[]>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  readonly #pings: number[] = [];

  constructor(ws: WebSocket, readonly tags: Record<string, string>) {
    this.#ws = ws;
  }

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
    metrics.sent.add(1, this.tags);
    if (totals.counts(performance.now())) totals.messagesSent++, totals.payloadBytesSent += utf8Length(text);
  }

  sendBinary(data: ArrayBuffer | Uint8Array): void {
    const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
    checkSendSize("socket.sendBinary", bytes.byteLength);
    if (this.#ws.readyState !== WebSocket.OPEN) return;
    this.#ws.send(bytes);
    metrics.sent.add(1, this.tags);
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

  emit(event: string, args: unknown[]): void {
    for (const handler of this.#handlers.get(event) ?? []) this.#call(handler, args);
  }

  ponged(): void {
    const nowMs = performance.now();
    const sentMs = this.#pings.shift();
    if (sentMs !== undefined) metrics.ping.add(nowMs - sentMs, this.tags);
    if (totals.counts(nowMs)) totals.pongsReceived++;
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
  const given = params ?? {};
  for (const key in given) {
    if (!PARAMS.has(key)) throw new TypeError(`ws params.${key} is not supported by loadlab's k6 runtime`);
  }
  if (typeof callback !== "function") throw new TypeError("ws.connect needs a function that uses the socket");
  const session = current()?.s;
  const ended = session?.ended;
  const ws = new WebSocket(session?.route(url) ?? url, {
    headers: given.headers,
    perMessageDeflate: given.compression === "deflate",
    maxPayload: K6_WS_MAX_MESSAGE_BYTES,
  });
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
      openMs = performance.now();
      metrics.connecting.add(openMs - startMs, socket.tags);
      metrics.sessions.add(1, socket.tags);
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
      metrics.received.add(1, socket.tags);
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
      if (response.status === 101) {
        totals.closeCode(performance.now(), code);
        metrics.duration.add(performance.now() - openMs, socket.tags);
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
