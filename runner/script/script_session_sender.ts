/**
 * @module
 * What a virtual user's sessions send with: one `SessionSender` per user, reused by each of its sessions
 * (`begin`), so a session waiting in a crowd allocates nothing that would reach V8's old generation. One
 * request in flight at a time on the session's connection; `s.batch` and other origins go beside it.
 */
import type { BatchLimits, GrpcParams, GrpcResponse, RequestOptions, Response } from "./session.ts";
import { ScriptGrpcCall } from "./script_grpc.ts";
import type { ScriptGrpcSchema } from "./script_grpc_schema.ts";
import type { ScriptRecorder } from "./script_recorder.ts";
import { CUT, type SessionEnd } from "./script_session_end.ts";
import type { SessionChain, SessionContext, VirtualUser } from "./script_session_context.ts";
import type { SessionBatch } from "./script_batch.ts";
import { SideConnections } from "./side_connections.ts";
import { SessionSides } from "./script_side.ts";
import {
  encodeScriptRequest,
  exchangeKeptInto,
  overlapRefusal,
  ownDeadline,
  pathTypeRefusal,
  ScriptRequestError,
  type ScriptSend,
} from "./script_send.ts";
import { SessionExchange } from "./script_session_exchange.ts";

const NO_OPTIONS: RequestOptions = {};

type User = VirtualUser<SessionEnd>;

export class SessionSender extends SessionExchange {
  readonly vu: number;
  readonly state: Record<string, unknown>;
  readonly #user: User;
  /** Its session concluded: a request of its `s` is refused (the connection is another session's). */
  over = false;
  #chain: SessionChain | null = null;
  #startMs = 0;
  /** What every request sent while another is in flight gets (made once: a loop of them costs nothing). */
  #overlap: Promise<Response> | null = null;
  /** Its exchanges beside its one request at a time (a batch's, another origin's), once it sent one. */
  #side: SessionSides | null = null;

  constructor(sessions: SessionContext, user: User, vu: number) {
    super(sessions);
    this.#user = user;
    this.vu = vu;
    this.state = user.state;
  }

  begin(
    s: SessionEnd,
    chain: SessionChain,
    startMs: number,
    recorder: ScriptRecorder | null,
    nowMs: number,
  ): void {
    this.#user.current = s;
    this.over = false;
    this.#chain = chain;
    this.#startMs = startMs;
    const jar = this.sessions.options.start ? this.#user.jar : null;
    this.beginExchanges(s, chain.run, chain.load, { startMs, nowMs }, recorder, jar);
    this.#overlap = null;
    this.#side = null;
  }

  live(s: SessionEnd): boolean {
    return this.current === s && !this.over;
  }

  inFlight(s: SessionEnd): boolean {
    return this.current === s && this.sending !== null;
  }

  /** Session `s`'s outcome came: counted, the jar kept, the connection handed on after its last request. */
  concluded(s: SessionEnd, outcome: unknown, failed: boolean): void {
    const nowMs = this.nowMs();
    try {
      this.sessions.counted(s, outcome, failed, {
        run: this.run,
        recorder: this.recorder,
        startMs: this.#startMs,
        nowMs,
      });
    } finally {
      this.over = true;
      if (this.sessions.options.start) this.#user.jar = this.jar;
      const inFlight = this.sending;
      if (inFlight === null) this.#leave(s, nowMs);
      else {
        const leave = () => this.#leave(s, this.nowMs());
        inFlight.then(leave, leave);
      }
    }
  }

  #leave(s: SessionEnd, nowMs: number): void {
    const conn = this.conn!;
    conn.endSession();
    conn.lastEventMs = nowMs;
    this.sessions.handOn(this.#chain!, this.responses, nowMs);
    // The user's next session did not start: its side connections close.
    const user = this.#user;
    if (user.sides !== undefined && user.current === s) {
      user.sides.close();
      user.sides = undefined;
    }
  }

  get target(): string {
    return this.sessions.options.url.href;
  }

  route(url: string): string {
    return this.sessions.origins.routed(url);
  }

  get setup(): unknown {
    return this.sessions.options.setupData;
  }

  get env(): Readonly<Record<string, string>> {
    return this.sessions.options.env;
  }

  get grpcSchema(): ScriptGrpcSchema | null {
    return this.sessions.options.grpc ?? null;
  }

  request(method: string, target: string, options: RequestOptions = NO_OPTIONS): Promise<Response> {
    if (typeof target !== "string") return pathTypeRefusal(method, target);
    const batch = this.#side === null ? null : this.#side.batch;
    if (batch !== null) return this.#placed(batch, method, target, options);
    // A URL of the target's origin, or of one routed to it, goes as its path (looked up, not parsed again).
    const path = target.charCodeAt(0) === 47 ? target : this.sessions.origins.pathOnTarget(target);
    if (path === null) return this.#placed(batch, method, target, options);
    if (this.sending !== null) return this.#overlap ??= overlapRefusal(method);
    return this.#own(method, path, options);
  }

  /** A request on the session's own connection; the exchange's end settles the script's promise itself. */
  #own(method: string, target: string, options: RequestOptions): Promise<Response> {
    let sent: ScriptSend["sent"];
    try {
      sent = this.#encode(method, target, options);
    } catch (err) {
      return Promise.reject(err);
    }
    const response = new Promise<Response>(this.awaited);
    this.sending = response;
    const conn = this.conn!, timeoutMs = options.timeoutMs;
    // Opened first, so this request's own timeout counts from its send.
    if (timeoutMs !== undefined && !conn.isOpen) {
      conn.open().then(
        (opened) => opened ? this.#writeInto(sent, timeoutMs) : this.settled(0),
        this.settleFailed,
      );
    } else this.#writeInto(sent, timeoutMs);
    return response;
  }

  #writeInto(sent: ScriptSend["sent"], timeoutMs: number | undefined): void {
    const conn = this.conn!, nowMs = this.nowMs();
    exchangeKeptInto(conn, this.sendMs = this.sendTime(nowMs), nowMs, sent, this);
    ownDeadline(conn, timeoutMs);
  }

  #placed(
    batch: SessionBatch | null,
    method: string,
    target: string,
    options: RequestOptions,
  ): Promise<Response> {
    const place = this.sessions.origins.placeOf(target, this.run.shared);
    if (typeof place === "string") return Promise.reject(new ScriptRequestError(place));
    if (batch !== null) return batch.request({ place, method, target, options });
    if (this.sending !== null) return this.#overlap ??= overlapRefusal(method);
    if (place.target) return this.#own(method, target, options);
    return this.#sides().send({ place, method, target, options }, null);
  }

  batch<T>(send: () => Promise<T>, limits: BatchLimits = {}): Promise<T> {
    const sides = this.#sides();
    if (sides.batch === null && this.sending !== null) return overlapRefusal("batch") as Promise<never>;
    return sides.inBatch(send, limits);
  }

  #sides(): SessionSides {
    if (this.#side !== null) return this.#side;
    const sessions = this.sessions, user = this.#user, run = this.run, s = this.current!;
    return this.#side = new SessionSides({
      conn: this.conn!,
      run,
      names: sessions.names,
      step: (name) => this.step = this.recorder === null ? -1 : this.recorder.step(name),
      jar: () => this.jar,
      sides: () => user.sides ??= new SideConnections(run.sides, () => sessions.sideId()),
      sendMs: () => this.sendTime(),
      sending: (wait) => this.sending = wait,
      counted: (step, got, latencyMs) => this.counted(step, got, latencyMs),
      responseOf: (conn, host, path) => this.responseOf(conn, host, path),
      cut: () => s.settle(CUT, false),
    });
  }

  /** A gRPC call with `schema` on the session's stream slot, under a request's rules (one in flight). */
  invokeGrpc(
    schema: ScriptGrpcSchema | null,
    method: string,
    message: unknown,
    params?: GrpcParams,
  ): Promise<GrpcResponse> {
    // In a batch the session's stream may be the batch's (script_side.ts): a call waits for its end.
    if (this.sending !== null || this.#side?.busy) return overlapRefusal("grpc.invoke") as Promise<never>;
    let call: ScriptGrpcCall, exchange: Promise<number>;
    const conn = this.conn!;
    try {
      call = new ScriptGrpcCall(schema, conn, this.sessions, { method, message, params });
      const name = this.sessions.names.shown(call.name);
      call.request.endpoint = this.run.shared.recorder.endpointIndex(name);
      this.stepOf(name, call.path);
      exchange = this.#dispatch(call, call.timeoutMs);
    } catch (err) {
      return Promise.reject(err);
    }
    const done = exchange.then((got) => {
      this.ended();
      this.counted(this.step, got, conn.lastEventMs - this.sendMs);
      return call.response(got);
    }, this.exchangeFailed);
    this.sending = done;
    return done;
  }

  #encode(method: string, target: string, options: RequestOptions): ScriptSend["sent"] {
    const sessions = this.sessions;
    const { sent, name, path } = encodeScriptRequest(
      { requests: sessions.requests, names: sessions.names, shared: this.run.shared },
      this.conn!,
      this.jar,
      { method, target, options },
    );
    this.stepOf(name, path);
    return sent;
  }

  #dispatch(sent: ScriptGrpcCall, timeoutMs: number | undefined): Promise<number> {
    const conn = this.conn!;
    if (timeoutMs !== undefined && !conn.isOpen) {
      return conn.open().then((opened) => opened ? this.#write(sent, timeoutMs) : 0);
    }
    return this.#write(sent, timeoutMs);
  }

  #write(sent: ScriptGrpcCall, timeoutMs: number | undefined): Promise<number> {
    const exchange = sent.exchange(this.sendMs = this.sendTime());
    ownDeadline(this.conn!, timeoutMs);
    return exchange;
  }
}
