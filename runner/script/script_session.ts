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
import type { RequestOptions, Response, Session, SessionCookies } from "./session.ts";
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
}

/** What a closed load's virtual user keeps from one session to the next. */
export interface VirtualUser {
  state: Record<string, unknown>;
  jar: CookieJar | null;
}

/** What a session shares with the worker's other sessions of the script. */
export interface SessionContext {
  readonly options: ScriptSessionOptions;
  readonly requests: ScriptRequests;
  readonly names: ScriptNames;
}

/** The `s` a script's default export receives. */
export class ScriptSession extends SessionEnd implements Session {
  readonly data: Readonly<Record<string, string>>;
  readonly vu: number;
  readonly iteration: number;
  readonly state: Record<string, unknown>;
  responses = 0;
  /** The session ended: its connection is another session's, so a request kept past it is refused. */
  over = false;
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
  #sending: Promise<Response> | null = null;
  /** What every request sent while another is in flight gets (made once: a loop of them costs nothing). */
  #overlap: Promise<Response> | null = null;
  /** The request in flight's send time and path (its latency and cookies), and the callbacks of its end. */
  #sendMs = 0;
  #path = "";
  #onExchanged: ((got: number) => Response) | null = null;
  #onExchangeFailed: ((err: unknown) => never) | null = null;

  constructor(
    sessions: SessionContext,
    run: SessionRun,
    conn: SessionConnection,
    startMs: number,
    recorder: ScriptRecorder | null,
    ids: { data: Record<string, string>; vu: number; iteration: number; user: VirtualUser },
  ) {
    super(run);
    this.#sessions = sessions;
    this.#run = run;
    this.#conn = conn;
    this.#startMs = startMs;
    this.#recorder = recorder;
    this.data = ids.data;
    this.vu = ids.vu;
    this.iteration = ids.iteration;
    this.state = ids.user.state;
    this.#jar = sessions.options.start ? ids.user.jar : null;
  }

  /** The session's cookie jar as it ends (kept for the user's next session with a start hook). */
  get jar(): CookieJar | null {
    return this.#jar;
  }

  protected inFlight(): boolean {
    return this.#sending !== null;
  }

  /** The session's request in flight (resolves when it has ended), or null: none. */
  settled(): Promise<unknown> | null {
    return this.#sending;
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
    // time), and its two callbacks are made once per session that sends.
    this.#onExchanged ??= (got) => this.#exchanged(got);
    this.#onExchangeFailed ??= (err) => {
      this.#ended();
      throw err;
    };
    return this.#sending = exchange.then(this.#onExchanged, this.#onExchangeFailed);
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
    const recorder = this.#recorder;
    this.#step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
    const timeoutMs = options.timeoutMs;
    // Opened first, so this request's own timeout counts from its send.
    if (timeoutMs !== undefined && !conn.isOpen) {
      return conn.open().then((opened) => opened ? this.#write(sent, timeoutMs) : 0);
    }
    return this.#write(sent, timeoutMs);
  }

  #write(sent: ScriptSend["sent"], timeoutMs: number | undefined): Promise<number> {
    const conn = this.#conn;
    // The first request goes at the arrival's intended time; later ones when the script sends them.
    const sendMs = this.#sent++ === 0 ? this.#startMs : performance.now();
    this.#sendMs = sendMs;
    const exchange = exchangeKept(conn, sendMs, sent);
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
    const step = this.#step;
    if (got === 0) return this.#failed(step);
    this.responses++;
    const conn = this.#conn;
    this.#recorder?.stepResponse(step, (conn.lastEventMs - this.#sendMs) * 1000);
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

  #failed(step: number): Response {
    // Our own stop aborted it: not the target's failure, not counted (as the request is not).
    if (!this.#run.shared.stopping && step >= 0) this.#recorder?.stepError(step);
    return NO_RESPONSE;
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
