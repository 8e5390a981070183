/**
 * @module
 * The `s` a session script's default export receives, one per session (script_sessions.ts runs them).
 * Each `s.get(...)` is an exchange on the session's connection (connection.ts: the same transports, TLS
 * and recording as fixed requests), so requests count in the run's intervals and, by name, in the
 * script's steps (script_recorder.ts) and under the endpoint of that name. The first request's latency
 * counts from the arrival's intended time (the open models' schedule), later ones from their send, as a
 * flow's do (flow_session.ts). A failed request gives a status-0 response and the script goes on (its
 * error is counted by kind). A session has one request in flight at a time: another sent meanwhile (not
 * awaited) is refused as a `script` error at its line, never sent on a connection of its own, and so is
 * a request on an `s` kept past its session (the connection is another session's by then); the refusals
 * and the encoding are script_send.ts's, the outcome, cut and sleeps script_session_end.ts's.
 */
import { Connection } from "../http/h1/connection.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import type { SessionRun } from "../load/flow_session.ts";
import type { Feeder } from "../load/feeder.ts";
import type {
  GrpcParams,
  GrpcResponse,
  RequestOptions,
  Response,
  Session,
  SessionCookies,
  SessionGrpc,
} from "./session.ts";
import {
  type ScriptGrpcAnswer,
  ScriptGrpcCall,
  type ScriptGrpcRequests,
  type ScriptGrpcSchema,
} from "./script_grpc.ts";
import type { ScriptRequests } from "./script_request.ts";
import { copyKept, H2ScriptResponse, NO_RESPONSE, ScriptResponse } from "./script_response.ts";
import { type ScriptRecorder, SESSION_STEP } from "./script_recorder.ts";
import type { ScriptNames } from "./script_names.ts";
import { SessionEnd } from "./script_session_end.ts";
import {
  encodeScriptRequest,
  exchangeKept,
  overlapRefusal,
  overRefusal,
  type ScriptSend,
  type SessionConnection,
} from "./script_send.ts";

const NO_OPTIONS: RequestOptions = {};
const decoder = new TextDecoder();

/** What script sessions need beyond the run. */
export interface ScriptSessionOptions {
  url: URL;
  /** The script's path (its errors are placed relative to its folder). */
  path: string;
  /** Start of the measured run: sessions before it run but are not counted. */
  originMs: number;
  feeder: Feeder | null;
  columns: readonly string[];
  cookies: boolean;
  setupData: unknown;
  env: Readonly<Record<string, string>>;
  workerIndex: number;
  workerCount: number;
  /**
   * The script's `start(s)` (Locust's `on_start`), else null: run once per virtual user before its first
   * session, and then the user's cookie jar is kept from one of its sessions to the next.
   */
  start?: ((s: Session) => unknown) | null;
  /** The schema the script declares for `s.grpc` (`export const grpc`), else null. */
  grpc?: ScriptGrpcSchema | null;
}

/** What a session sends: an encoded request, or a gRPC call (which exchanges itself on its slot). */
type Sent = ScriptSend["sent"] | ScriptGrpcCall;

/** What a closed load's virtual user keeps from one session to the next. */
export interface VirtualUser {
  state: Record<string, unknown>;
  jar: CookieJar | null;
  /** Its sessions started so far (the next one's `iteration`). */
  sessions: number;
  /** Its session in progress (a user runs one at a time; the last one once they ended). */
  current?: ScriptSession;
  /** The callbacks its sessions' promises settle through: made at its first session, not at each. */
  handlers?: UserHandlers;
}

/** A virtual user's callbacks, each for its session in progress (`VirtualUser.current`). */
interface UserHandlers {
  value(value: unknown): void;
  error(err: unknown): void;
  exchanged(got: number): Response;
  exchangeFailed(err: unknown): never;
}

/** What a session shares with the worker's other sessions of the script. */
export interface SessionContext {
  readonly options: ScriptSessionOptions;
  readonly requests: ScriptRequests;
  readonly names: ScriptNames;
  /** Each stream slot's judge of the script's gRPC calls on it, made at its first call. */
  readonly grpcAnswers: WeakMap<object, ScriptGrpcAnswer>;
  /** The script's gRPC calls as HTTP/2 requests, their heads encoded once each. */
  readonly grpcRequests: ScriptGrpcRequests;
  /** Counts a session's outcome (completed, failed, cut) as it ends; it is no longer live. */
  counted(s: ScriptSession, outcome: unknown, failed: boolean, at: SessionCount): void;
  /** The session's connection is free (`nowMs`): the chain's next session starts, or the chain ends. */
  handOn(chain: SessionChain, responses: number, nowMs: number): void;
}

/**
 * The sessions one arrival runs on its connection: one, or a closed loop's one after another while its
 * `next` grants them (executor.ts `Arrival`), and what resolves the arrival when they end.
 */
export interface SessionChain {
  readonly run: SessionRun;
  readonly load: SessionConnection;
  readonly next: ((depth: number, nowMs: number) => number) | null;
  readonly done: (responses: number) => void;
}

/** Where and when a session ending is counted. */
export interface SessionCount {
  readonly run: SessionRun;
  readonly recorder: ScriptRecorder | null;
  readonly startMs: number;
  readonly nowMs: number;
}

/** The `s` a script's default export receives. */
export class ScriptSession extends SessionEnd implements Session {
  readonly vu: number;
  readonly iteration: number;
  readonly state: Record<string, unknown>;
  responses = 0;
  /** The session ended: its connection is another session's, so a request kept past it is refused. */
  over = false;
  /** Its arrival's sessions: told when this one ended and its connection is free for the next. */
  readonly #chain: SessionChain;
  #data: Record<string, string> | null;
  readonly #user: VirtualUser;
  readonly #sessions: SessionContext;
  readonly #run: SessionRun;
  readonly #conn: SessionConnection;
  readonly #startMs: number;
  readonly #recorder: ScriptRecorder | null;
  /** Made when first used: a Set-Cookie kept (cookies on) or the script's own `s.cookies.set`. */
  #jar: CookieJar | null = null;
  /** The step checks count under: the last request's. */
  #step = -1;
  #sent = 0;
  /** The request in flight (one at a time: the session has one connection), else null. */
  #sending: Promise<unknown> | null = null;
  /** What every request sent while another is in flight gets (made once: a loop of them costs nothing). */
  #overlap: Promise<Response> | null = null;
  /** The request in flight's send time and path (its latency and cookies), and the callbacks of its end. */
  #sendMs = 0;
  #path = "";
  #grpc: SessionGrpc | null = null;

  constructor(
    sessions: SessionContext,
    chain: SessionChain,
    startMs: number,
    recorder: ScriptRecorder | null,
    ids: { data: Record<string, string> | null; vu: number; iteration: number; user: VirtualUser },
  ) {
    super(chain.run);
    this.#sessions = sessions;
    this.#chain = chain;
    this.#run = chain.run;
    this.#conn = chain.load;
    this.#startMs = startMs;
    this.#recorder = recorder;
    this.#data = ids.data;
    this.vu = ids.vu;
    this.iteration = ids.iteration;
    this.#user = ids.user;
    ids.user.current = this;
    this.state = ids.user.state;
    this.#jar = sessions.options.start ? ids.user.jar : null;
  }

  /** The session's data row (column -> value), an empty object made when first read without one. */
  get data(): Readonly<Record<string, string>> {
    return this.#data ??= {};
  }

  /**
   * The session's outcome came: counted, its user's jar kept, and its connection handed on once its
   * last request ended (one the script did not await ends before another session gets the connection).
   */
  protected concluded(outcome: unknown, failed: boolean): void {
    const nowMs = performance.now();
    try {
      this.#sessions.counted(this, outcome, failed, {
        run: this.#run,
        recorder: this.#recorder,
        startMs: this.#startMs,
        nowMs,
      });
    } finally {
      this.over = true;
      if (this.#sessions.options.start) this.#user.jar = this.#jar;
      const inFlight = this.#sending;
      if (inFlight === null) this.#leave(nowMs);
      else {
        const leave = () => this.#leave(performance.now());
        inFlight.then(leave, leave);
      }
    }
  }

  /** The connection goes to the next session (when the session ended: a closed loop starts none past the load's end). */
  #leave(nowMs: number): void {
    const conn = this.#conn;
    conn.endSession();
    conn.lastEventMs = nowMs;
    this.#sessions.handOn(this.#chain, this.responses, nowMs);
  }

  get target(): string {
    return this.#sessions.options.url.href;
  }

  get ended(): AbortSignal {
    return this.#run.ended;
  }

  protected inFlight(): boolean {
    return this.#sending !== null;
  }

  get setup(): unknown {
    return this.#sessions.options.setupData;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#sessions.options.env;
  }

  get(path: string, options?: RequestOptions): Promise<Response> {
    return this.request("GET", path, options);
  }
  post(path: string, options?: RequestOptions): Promise<Response> {
    return this.request("POST", path, options);
  }
  put(path: string, options?: RequestOptions): Promise<Response> {
    return this.request("PUT", path, options);
  }
  patch(path: string, options?: RequestOptions): Promise<Response> {
    return this.request("PATCH", path, options);
  }
  delete(path: string, options?: RequestOptions): Promise<Response> {
    return this.request("DELETE", path, options);
  }

  request(method: string, target: string, options: RequestOptions = NO_OPTIONS): Promise<Response> {
    if (this.#run.ended.aborted) return this.cutNow();
    if (this.over) return overRefusal(method);
    if (this.#sending !== null) return this.#overlap ??= overlapRefusal(method);
    let exchange: Promise<number>;
    try {
      exchange = this.#send(method, target, options);
    } catch (err) {
      return Promise.reject(err);
    }
    // No async frame waits per request: what the response needs is on the session (one request at a
    // time), and its two callbacks are its user's, made once.
    const on = this.#handlers();
    return this.#sending = exchange.then(on.exchanged, on.exchangeFailed);
  }

  /** The script function's result (a promise or a value) ends the session, watched by its user's callbacks. */
  endWithBody(body: unknown): void {
    const on = this.#handlers();
    this.endWith(body, on.value, on.error);
  }

  /** Its user's callbacks (`UserHandlers`), made at the user's first session. */
  #handlers(): UserHandlers {
    const user = this.#user;
    return user.handlers ??= {
      value: (value) => user.current!.settle(value, false),
      error: (err) => user.current!.settle(err, true),
      exchanged: (got) => user.current!.#exchanged(got),
      exchangeFailed: (err) => {
        user.current!.#ended();
        throw err;
      },
    };
  }

  get grpc(): SessionGrpc {
    return this.#grpc ??= {
      invoke: (method, message, params) =>
        this.invokeGrpc(this.#sessions.options.grpc ?? null, method, message, params),
    };
  }

  /**
   * A gRPC call with `schema` (the script's declared one, or a k6 client's) on the session's stream slot,
   * under a request's rules: one in flight, none after the session or the run ended.
   */
  invokeGrpc(
    schema: ScriptGrpcSchema | null,
    method: string,
    message: unknown,
    params?: GrpcParams,
  ): Promise<GrpcResponse> {
    if (this.#run.ended.aborted) return this.cutNow();
    if (this.over) return overRefusal("grpc.invoke") as Promise<never>;
    if (this.#sending !== null) return overlapRefusal("grpc.invoke") as Promise<never>;
    let call: ScriptGrpcCall, exchange: Promise<number>;
    try {
      call = new ScriptGrpcCall(schema, this.#conn, this.#sessions, { method, message, params });
      const name = this.#sessions.names.shown(call.name);
      call.request.endpoint = this.#run.shared.recorder.endpointIndex(name);
      exchange = this.#dispatch(name, call.path, call, call.timeoutMs);
    } catch (err) {
      return Promise.reject(err);
    }
    const done = exchange.then((got) => {
      this.#ended();
      this.#counted(got);
      return call.response(got);
    }, this.#handlers().exchangeFailed);
    this.#sending = done;
    return done;
  }

  /** Encodes and sends the request; its exchange's response count (a refusal throws: nothing sent). */
  #send(method: string, target: string, options: RequestOptions): Promise<number> {
    const sessions = this.#sessions;
    const conn = this.#conn;
    const { sent, name, path } = encodeScriptRequest(
      { requests: sessions.requests, names: sessions.names, shared: this.#run.shared },
      conn,
      this.#jar,
      { method, target, options },
    );
    return this.#dispatch(name, path, sent, options.timeoutMs);
  }

  /** Sends an encoded request (or gRPC call) counted under step `name`; its exchange's response count. */
  #dispatch(name: string, path: string, sent: Sent, timeoutMs: number | undefined): Promise<number> {
    const conn = this.#conn;
    const recorder = this.#recorder;
    this.#step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
    // Opened first, so this request's own timeout counts from its send.
    if (timeoutMs !== undefined && !conn.isOpen) {
      return conn.open().then((opened) => opened ? this.#write(sent, timeoutMs) : 0);
    }
    return this.#write(sent, timeoutMs);
  }

  #write(sent: Sent, timeoutMs: number | undefined): Promise<number> {
    const conn = this.#conn;
    // The first request goes at the arrival's intended time; later ones when the script sends them.
    const sendMs = this.#sent++ === 0 ? this.#startMs : performance.now();
    this.#sendMs = sendMs;
    const exchange = sent instanceof ScriptGrpcCall
      ? sent.exchange(sendMs)
      : exchangeKept(conn, sendMs, sent);
    if (timeoutMs !== undefined && conn.deadlineMs !== Infinity) {
      conn.deadlineMs = performance.now() + timeoutMs;
    }
    return exchange;
  }

  /** The request in flight ended: cut the session if the run ended meanwhile. */
  #ended(): void {
    this.#sending = null;
    if (this.#run.ended.aborted) this.cut();
  }

  /** The exchange's end: the script's response (its bytes copied: the connection reuses its own). */
  #exchanged(got: number): Response {
    this.#ended();
    if (!this.#counted(got)) return NO_RESPONSE;
    const conn = this.#conn;
    const response = conn instanceof Connection
      ? new ScriptResponse(copyKept(conn.keptBytes()))
      : new H2ScriptResponse(conn.keptResponse().snapshot());
    // The jar is made by the first Set-Cookie it keeps (cookies on), or by the script's own `s.cookies`.
    if ((this.#jar !== null || this.#sessions.options.cookies) && response.mayHaveSetCookie()) {
      const set = response.getAll("set-cookie");
      if (set.length > 0) {
        const host = this.#sessions.requests.url.host;
        this.#jarOrNew().set(set, host, this.#path, Date.now());
      }
    }
    return response;
  }

  #jarOrNew(): CookieJar {
    return this.#jar ??= new CookieJar(this.#sessions.options.url.protocol === "https:");
  }

  /** Counts the exchange's end under its step; false when it failed (its error counted by kind). */
  #counted(got: number): boolean {
    const step = this.#step;
    if (got === 0) {
      // Our own stop aborted it: not the target's failure, not counted (as the request is not).
      if (!this.#run.shared.stopping && step >= 0) this.#recorder?.stepError(step);
      return false;
    }
    this.responses++;
    this.#recorder?.stepResponse(step, (this.#conn.lastEventMs - this.#sendMs) * 1000);
    return true;
  }

  check(ok: boolean, name: string): boolean {
    const recorder = this.#recorder;
    if (recorder !== null) {
      const step = this.#step >= 0 ? this.#step : recorder.step(SESSION_STEP);
      recorder.check(step, this.#sessions.names.shown(String(name)), Boolean(ok));
    }
    return Boolean(ok);
  }

  get cookies(): SessionCookies {
    const url = this.#sessions.options.url;
    return {
      get: (name) => {
        const line = this.#jar?.line(url.host, "/", Date.now());
        if (!line) return undefined;
        for (const pair of decoder.decode(line).slice("Cookie: ".length).trim().split("; ")) {
          const eq = pair.indexOf("=");
          if (pair.slice(0, eq) === name) return pair.slice(eq + 1);
        }
        return undefined;
      },
      set: (name, value) => {
        this.#jarOrNew().set([`${name}=${value}; Path=/`], url.host, "/", Date.now());
      },
      // An empty jar sends what no jar does: nothing (the next Set-Cookie makes one when cookies are on).
      clear: () => {
      },
    };
  }
}
