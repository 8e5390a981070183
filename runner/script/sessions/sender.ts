/**
 * @module
 * One `SessionSender` per virtual user, reused by its next sessions so what lives across a crowd's waits is
 * made once; a batch's and other origins' exchanges go beside its one request, on side connections if busy.
 */
import type {
  BatchLimits,
  GrpcParams,
  GrpcResponse,
  RequestOptions,
  Response,
  SessionCookies,
} from "../session.ts";
import { ScriptGrpcCall } from "./grpc.ts";
import type { ScriptGrpcSchema } from "./grpc_schema.ts";
import { reservedNameProblem, type ScriptRecorder, SESSION_STEP } from "./recorder.ts";
import {
  CUT,
  type EndingSession,
  type SessionChain,
  type SessionContext,
  type SessionCount,
  type VirtualUser,
} from "./context.ts";
import { BATCH_PARALLEL, BATCH_PER_HOST, type BatchRequest, SessionBatch } from "./batch.ts";
import type { OriginPlace } from "./origins.ts";
import { SideConnections } from "./side_connections.ts";
import {
  batchLimit,
  encodeScriptRequest,
  exchangeKept,
  keptStep,
  NO_OPTIONS,
  overlapRefusal,
  ownDeadline,
  pathTypeRefusal,
  ScriptRequestError,
  type ScriptSend,
  type SessionConnection,
} from "./send.ts";
import { Connection } from "../../http/h1/connection.ts";
import { CookieJar } from "../../http/cookie_jar.ts";
import type { SessionRun } from "../../load/flow_session.ts";
import { failedResponse, H2ScriptResponse, keptScriptResponse } from "./response.ts";
import { sessionCookies } from "./cookies.ts";
import { scriptText } from "../module.ts";

type User = VirtualUser<EndingSession>;

/** What a runtime makes of a response (k6's `K6Response`), or `settle` itself when it settles it later. */
export type ResponseThen = {
  arrived(response: Response, settle?: (value: unknown) => void): unknown;
  /** Sent at once in a batch, whatever its limits (k6's asyncRequest). */
  readonly beside?: boolean;
};

/** An exchange beside the session's one request at a time: a batch's, or another origin's. */
interface SideExchange {
  readonly conn: SessionConnection;
  readonly place: OriginPlace;
  readonly step: number;
  readonly path: string;
  readonly keep: boolean;
  sendMs: number;
  /** Cut with its iteration (`cutSides`): it ends uncounted. */
  cut?: boolean;
}

/** A virtual user's requests, session after session: one at a time, on the session's connection. */
export class SessionSender implements SessionCount {
  /** The session in progress (the last one once it ended), its run and connection. */
  private current: EndingSession | null = null;
  run!: SessionRun;
  private conn: SessionConnection | null = null;
  responses = 0;
  /** How late the session began against its start (an open arrival's queue; ~0 for a closed loop). */
  #lateMs = 0;
  recorder: ScriptRecorder | null = null;
  /** Made when first used: a Set-Cookie kept (cookies on) or the script's own `s.cookies.set`. */
  private jar: CookieJar | null = null;
  /** The request in flight said `cookies: false`: its response's cookies are not kept. */
  #jarOff = false;
  /** The step checks count under: the last request's. */
  private step = -1;
  #sent = 0;
  /** The request in flight (one at a time: the session has one connection), else null. */
  private sending: Promise<unknown> | null = null;
  private sendMs = 0;
  #path = "";
  /** The resolver of the request in flight's promise (`sending`), but a gRPC call's, and its `then`. */
  #resolve: ((response: Response | Promise<Response>) => void) | null = null;
  #then: ResponseThen | null = null;
  readonly state: Record<string, unknown>;
  readonly #user: User;
  /** Its session concluded: a request of its `s` is refused (the connection is another session's). */
  over = false;
  #chain: SessionChain | null = null;
  startMs = 0;
  /** What every request sent while another is in flight gets (made once: a loop of them costs nothing). */
  #overlap: Promise<Response> | null = null;
  #batch: SessionBatch | null = null;
  /** Side exchanges in flight, and the resolver of `sending` for when the last one ends. */
  readonly #sides = new Set<SideExchange>();
  #drained: (() => void) | null = null;
  /** A side exchange holds the session's own connection. */
  #loadBusy = false;

  /** `sessions`: what the worker's sessions share, its options (target, setup data, env) and origins. */
  constructor(readonly sessions: SessionContext, user: User, readonly vu: number) {
    this.#user = user;
    this.state = user.state;
  }

  /** Session `s` of `chain` begins at `startMs` (`nowMs`: the clock just read, else negative). */
  begin(
    s: EndingSession,
    chain: SessionChain,
    startMs: number,
    recorder: ScriptRecorder | null,
    nowMs: number,
  ): void {
    this.#user.current = s;
    this.over = false;
    this.#chain = chain;
    this.startMs = startMs;
    this.current = s;
    this.responses = 0;
    this.run = chain.run;
    this.conn = chain.load;
    this.#lateMs = Math.max(0, (nowMs < 0 ? this.nowMs() : nowMs) - startMs);
    this.recorder = recorder;
    this.jar = this.sessions.module.start ? this.#user.jar : null;
    this.step = -1;
    this.#sent = 0;
    this.sending = null;
    this.#overlap = null;
    this.#batch = null;
  }

  live(s: EndingSession): boolean {
    return this.current === s && !this.over;
  }

  inFlight(s: EndingSession): boolean {
    return this.current === s && this.sending !== null;
  }

  /** Session `s`'s outcome came: counted, the jar kept, the connection handed on after its last request. */
  concluded(s: EndingSession, outcome: unknown, failed: boolean): void {
    const nowMs = this.nowMs();
    try {
      this.sessions.counted(s, outcome, failed, this, nowMs);
    } finally {
      this.over = true;
      if (this.sessions.module.start) this.#user.jar = this.jar;
      const inFlight = this.sending;
      if (inFlight === null) this.#leave(s, nowMs);
      else {
        const leave = () => this.#leave(s, this.nowMs());
        inFlight.then(leave, leave);
      }
    }
  }

  /** The connection goes to the next session (when `s` ended; a closed loop starts none past the end). */
  #leave(s: EndingSession, nowMs: number): void {
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

  request(method: string, target: string, options = NO_OPTIONS, then?: ResponseThen): Promise<Response> {
    if (typeof target !== "string") return pathTypeRefusal(method, target);
    // A URL goes where its origin does, as its path there (looked up by the URL, not parsed again).
    const written = options.origin, href = written ?? target;
    const at = href.charCodeAt(0) === 47 ? null : this.sessions.origins.resolve(href, this.run.shared);
    if (typeof at === "string") return Promise.reject(new ScriptRequestError(at));
    const batch = this.#batch, path = at === null || written !== undefined ? target : at.path;
    let sent: Promise<Response>;
    if (batch !== null) {
      const place = at?.place ?? this.sessions.origins.target(this.run.shared);
      sent = batch.request({ place, method, path, options }, then?.beside);
    } else if (this.sending !== null) return this.#overlap ??= overlapRefusal(method);
    else if (at === null || at.place.target) return this.#own(method, path, options, then);
    else sent = this.#sideSend({ place: at.place, method, path, options }, null);
    return then ? sent.then((r) => then.arrived(r) as Response) : sent;
  }

  /** A request on the session's own connection; the exchange's end settles the script's promise itself. */
  #own(method: string, path: string, options: RequestOptions, then?: ResponseThen): Promise<Response> {
    let sent: ScriptSend["sent"];
    try {
      sent = this.#encode(method, path, options);
    } catch (err) {
      return Promise.reject(err);
    }
    const response = new Promise<Response>(this.awaited);
    this.sending = response;
    this.#then = then ?? null;
    const conn = this.conn!, timeoutMs = options.timeoutMs;
    // HTTP/1.1 on an open connection settles by callbacks: no promise of ours per request.
    if (conn instanceof Connection && (timeoutMs === undefined || conn.isOpen)) {
      const nowMs = conn.nowMs(), sendMs = this.sendMs = this.sendTime(nowMs);
      conn.exchangeInto(sendMs, nowMs, keptStep(conn, sent), this.settled, this.settleFailed);
      ownDeadline(conn, timeoutMs);
    } else {
      this.#timed(conn, timeoutMs, (sendMs) => exchangeKept(conn, this.sendMs = sendMs, sent), sent.endpoint)
        .then(this.settled, this.settleFailed);
    }
    return response;
  }

  /** `write`'s exchange on `conn`, opened first when the request has a timeout of its own (from its send). */
  #timed(
    conn: SessionConnection,
    timeoutMs: number | undefined,
    write: (sendMs: number) => Promise<number>,
    endpoint?: number,
  ): Promise<number> {
    if (timeoutMs !== undefined && !conn.isOpen) {
      return conn.open(endpoint).then((opened) => opened ? this.#timed(conn, timeoutMs, write) : 0);
    }
    const exchange = write(this.sendTime());
    ownDeadline(conn, timeoutMs);
    return exchange;
  }

  /** Requests `send` makes before it settles go in parallel, within `limits` (batch.ts); its value. */
  async batch<T>(send: () => Promise<T>, limits: BatchLimits = {}): Promise<T> {
    if (this.#batch !== null) return await send();
    if (this.sending !== null) return overlapRefusal("batch") as Promise<never>;
    const batch = new SessionBatch(
      batchLimit(limits.parallel, "parallel", BATCH_PARALLEL),
      batchLimit(limits.perHost, "perHost", BATCH_PER_HOST),
      // An HTTP/2 stream slot is the session's one lane to the target: its requests go one at a time.
      this.conn instanceof Connection ? Infinity : 1,
      (request, batch) => this.#sideSend(request, batch),
      () => this.run.ended.aborted,
    );
    this.#batch = batch;
    try {
      return await send();
    } finally {
      if (this.#batch === batch) this.#batch = null;
    }
  }

  /** The user's side connections, dialled at its first side exchange. */
  #sideConnections(): SideConnections {
    return this.#user.sides ??= new SideConnections(this.run.sides, () => this.sessions.sideId());
  }

  /** A side exchange: on the session's connection if it is free and the place the target's, else a side's. */
  #sideSend(request: BatchRequest, batch: SessionBatch | null): Promise<Response> {
    const { place, options } = request;
    const own = place.target && !this.#loadBusy;
    const conn = own ? this.conn! : this.#sideConnections().take(place);
    let encoded: ScriptSend;
    try {
      const at = { requests: place.requests, names: this.sessions.names };
      const { method, path } = request;
      encoded = { ...encodeScriptRequest(at, this.run.shared, conn, this.jar, method, path, options) };
    } catch (err) {
      if (!own) this.#sideConnections().give(place, conn as Connection);
      batch?.ended(place);
      return Promise.reject(err);
    }
    if (own) this.#loadBusy = true;
    const step = this.step = this.recorder === null ? -1 : this.recorder.step(encoded.name);
    const x: SideExchange = {
      conn,
      place,
      step,
      path: encoded.path,
      keep: options.cookies !== false,
      sendMs: 0,
    };
    if (this.#sides.size === 0) this.sending = new Promise<void>((resolve) => this.#drained = resolve);
    this.#sides.add(x);
    const { sent } = encoded;
    const write = (sendMs: number) => exchangeKept(conn, x.sendMs = sendMs, sent);
    const exchange = this.#timed(conn, options.timeoutMs, write, sent.endpoint);
    return exchange.then((got) => this.#sideEnded(x, got, batch), (err) => {
      this.#sideEnded(x, 0, batch);
      throw err;
    });
  }

  /** The side exchanges in flight end now, uncounted, as k6 cancels a throwing iteration's requests. */
  cutSides(): void {
    for (const x of this.#sides) {
      x.cut = true;
      if (x.conn instanceof Connection) x.conn.cut();
    }
  }

  #sideEnded(x: SideExchange, got: number, batch: SessionBatch | null): Response {
    const { conn, place } = x;
    const response = !x.cut && this.counted(x.step, got, conn.lastEventMs - x.sendMs)
      ? this.responseOf(conn, place.requests.url, x.path, x.keep)
      : failedResponse(conn, this.run.shared.recorder);
    if (conn === this.conn) this.#loadBusy = false;
    else this.#sideConnections().give(place, conn as Connection);
    batch?.ended(place);
    this.#sides.delete(x);
    if (this.#sides.size === 0) {
      this.sending = null;
      const drained = this.#drained!;
      this.#drained = null;
      drained();
      if (this.run.ended.aborted) this.current!.settle(CUT, false);
    }
    return response;
  }

  /** A gRPC call with `schema` on the session's stream slot, under a request's rules (one in flight). */
  invokeGrpc(
    schema: ScriptGrpcSchema | null,
    method: string,
    message: unknown,
    params?: GrpcParams,
  ): Promise<GrpcResponse> {
    // In a batch the session's stream may be the batch's: a call waits for its end.
    if (this.sending !== null || this.#batch !== null || this.#sides.size > 0) {
      return overlapRefusal("grpc.invoke") as Promise<never>;
    }
    let call: ScriptGrpcCall, exchange: Promise<number>;
    const conn = this.conn!;
    try {
      call = new ScriptGrpcCall(schema, conn, this.sessions, { method, message, params });
      const name = this.sessions.names.shown(call.name);
      call.request.endpoint = this.run.shared.recorder.endpointIndex(name);
      this.stepOf(name, call.path);
      exchange = this.#timed(conn, call.timeoutMs, (sendMs) => call.exchange(this.sendMs = sendMs));
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

  #encode(method: string, path: string, opts: RequestOptions): ScriptSend["sent"] {
    const x = encodeScriptRequest(this.sessions, this.run.shared, this.conn!, this.jar, method, path, opts);
    this.#jarOff = opts.cookies === false;
    this.stepOf(x.name, x.path);
    return x.sent;
  }

  /** A request's promise's executor: its resolver is kept for the request's end. */
  private readonly awaited = (resolve: (response: Response | Promise<Response>) => void): void => {
    this.#resolve = resolve;
  };

  /** The request in flight ended (`got` responses): its response settles its promise. */
  readonly settled = (got: number): void => {
    const resolve = this.#resolve!, then = this.#then;
    this.#resolve = this.#then = null;
    let value: unknown;
    try {
      const response = this.#exchanged(got);
      value = then === null ? response : then.arrived(response, resolve as (value: unknown) => void);
    } catch (err) {
      return resolve(Promise.reject(err));
    }
    if (value !== resolve) resolve(value as Response);
  };

  /** The request in flight failed (not the target: our own code threw): its promise rejects. */
  readonly settleFailed = (err: unknown): void => {
    const resolve = this.#resolve!;
    this.#resolve = this.#then = null;
    this.ended();
    resolve(Promise.reject(err));
  };

  /** A gRPC call's exchange failed: the call is no longer in flight, and its promise rejects. */
  private readonly exchangeFailed = (err: unknown): never => {
    this.ended();
    throw err;
  };

  /** The script function's value or error: the session in progress ends. */
  readonly value = (value: unknown): void => this.current!.settle(value, false);
  readonly error = (err: unknown): void => this.current!.settle(err, true);

  /** The request about to go counts under step `name`; `path` is where its cookies come from. */
  private stepOf(name: string, path: string): void {
    const recorder = this.recorder;
    this.step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
  }

  /**
   * A request's send time: now, less the session's lateness for its first request, so an open arrival's
   * first request pays for a generator late to start it, never for the script's own waits before it.
   */
  private sendTime(nowMs = this.nowMs()): number {
    return this.#sent++ === 0 ? nowMs - this.#lateMs : nowMs;
  }

  /** `performance.now()`, read through the HTTP/1.1 connection's cheaper clock where it has one. */
  nowMs(): number {
    const conn = this.conn;
    return conn instanceof Connection ? conn.nowMs() : performance.now();
  }

  /** The request in flight ended: cut the session if the run ended meanwhile. */
  private ended(): void {
    this.sending = null;
    if (this.run.ended.aborted) this.current!.settle(CUT, false);
  }

  /** The exchange's end: the script's response (its bytes copied: the connection reuses its own). */
  #exchanged(got: number): Response {
    this.ended();
    const conn = this.conn!;
    if (!this.counted(this.step, got, conn.lastEventMs - this.sendMs)) {
      return failedResponse(conn, this.run.shared.recorder);
    }
    return this.responseOf(conn, this.sessions.requests.url, this.#path, !this.#jarOff);
  }

  /** `conn`'s response to a request to `url`'s host and `path`, its cookies kept unless not to `keep`. */
  private responseOf(conn: SessionConnection, url: URL, path: string, keep: boolean): Response {
    const h1 = conn instanceof Connection;
    const response = h1
      ? keptScriptResponse(conn.keptBytes(), conn)
      : new H2ScriptResponse(conn.keptResponse().snapshot());
    if (
      keep && (this.jar !== null || this.sessions.place.config.cookies !== false) &&
      (h1 ? conn.setCookie : response.has("set-cookie"))
    ) {
      const set = response.getAll("set-cookie");
      if (set.length > 0) {
        this.jarOrNew().set(set, url.host, path, Date.now());
        // A cookie's value is a secret from now on, as a secret header's is once sent.
        this.sessions.names.sent(
          set.map((line) => ["cookie", /^[^=;]*=([^;]*)/.exec(line)?.[1]?.trim() ?? ""]),
        );
      }
    }
    return response;
  }

  jarOrNew(adopt?: CookieJar): CookieJar {
    return this.jar = adopt ?? this.jar ?? new CookieJar(this.sessions.requests.url.protocol === "https:");
  }

  /** Counts an exchange's end under `step`; false when it failed (counted by kind). */
  private counted(step: number, got: number, latencyMs: number): boolean {
    if (got === 0) {
      // Our own stop aborted it: not the target's failure, not counted (as the request is not).
      if (!this.run.shared.stopping && step >= 0) this.recorder?.stepError(0, step);
      return false;
    }
    this.responses++;
    this.recorder?.stepResponse(0, step, latencyMs * 1000);
    return true;
  }

  check(ok: boolean, name: string): boolean {
    const recorder = this.recorder;
    if (recorder !== null) {
      const step = this.step >= 0 ? this.step : recorder.step(SESSION_STEP);
      const text = scriptText(name, "s.check's name", 'name the check with a string, e.g. "status 200"');
      const reserved = reservedNameProblem(text, "check");
      if (reserved !== undefined) throw new TypeError(reserved);
      recorder.check(step, this.sessions.names.shown(text), Boolean(ok));
    }
    return Boolean(ok);
  }

  /** A runtime's own sum under the last request's step (ScriptRecorder's `tally`), not a script's check. */
  tally(name: string, n: number): void {
    if (this.recorder !== null && this.step >= 0) this.recorder.tally(this.step, name, n);
  }

  get cookies(): SessionCookies {
    return sessionCookies(this.sessions.requests.url.host, () => this.jar, (adopt) => this.jarOrNew(adopt));
  }
}
