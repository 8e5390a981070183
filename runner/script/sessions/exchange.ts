/**
 * @module
 * A virtual user's request in flight and how its end is counted, the base of its `SessionSender`
 * (sender.ts, which starts the requests): the session's connection, the request's send
 * time, step and path, and the resolver of its promise, all held once per user so a session waiting in a
 * crowd allocates none of them. The first request's latency counts from its send less how late the
 * session began (an open arrival's lateness against the schedule), never from the session's start: a
 * think time, a timer or a check before it is the script's own time. Later ones count from their send, as
 * a flow's do (flow_session.ts). An exchange's end counts under its step (recorder.ts) and becomes
 * the script's response, its bytes copied and its `Set-Cookie` kept in the user's jar; a failed one gives
 * a status-0 response saying why (`failure`: the kind it is counted under, and its message) and the
 * script goes on. A request that ends after the run did cuts its session. A base class rather than an
 * object beside the sender, as the session's end is its `s`'s (end.ts): one object a user.
 */
import { Connection } from "../../http/h1/connection.ts";
import { CookieJar } from "../../http/cookie_jar.ts";
import type { SessionRun } from "../../load/flow_session.ts";
import type { Response, SessionCookies } from "../session.ts";
import { copyKept, failedResponse, H2ScriptResponse, ScriptResponse } from "./response.ts";
import { reservedNameProblem, type ScriptRecorder, SESSION_STEP } from "./recorder.ts";
import { CUT, type SessionEnd } from "./end.ts";
import type { SessionContext } from "./context.ts";
import type { SessionConnection } from "./send.ts";
import { sessionCookies } from "./cookies.ts";
import { scriptText } from "../text.ts";

/** The request in flight of a virtual user's session, and the counting of its end. */
export abstract class SessionExchange {
  protected readonly sessions: SessionContext;
  /** The session in progress (the last one once it ended), its run and connection. */
  protected current: SessionEnd | null = null;
  #run: SessionRun | null = null;
  protected conn: SessionConnection | null = null;
  /** The session's responses so far. */
  responses = 0;
  /**
   * How late the session began against its start (an open arrival's generator queue or wait for a
   * connection; next to nothing for a closed loop's, begun as its connection's last session ended).
   */
  #lateMs = 0;
  protected recorder: ScriptRecorder | null = null;
  /** Made when first used: a Set-Cookie kept (cookies on) or the script's own `s.cookies.set`. */
  protected jar: CookieJar | null = null;
  /** The step checks count under: the last request's. */
  protected step = -1;
  #sent = 0;
  /** The request in flight (one at a time: the session has one connection), else null. */
  protected sending: Promise<unknown> | null = null;
  /** The request in flight's send time and path (its latency and cookies). */
  protected sendMs = 0;
  #path = "";
  /** The resolver of the request in flight's promise (`sending`), but a gRPC call's. */
  #resolve: ((response: Response | Promise<Response>) => void) | null = null;

  constructor(sessions: SessionContext) {
    this.sessions = sessions;
  }

  /**
   * Session `s` of `run` begins on `conn` (its start `startMs`; `nowMs` the clock just read, else
   * negative): what the last one left is reset.
   */
  protected beginExchanges(
    s: SessionEnd,
    run: SessionRun,
    conn: SessionConnection,
    at: { startMs: number; nowMs: number },
    recorder: ScriptRecorder | null,
    jar: CookieJar | null,
  ): void {
    this.current = s;
    this.responses = 0;
    this.#run = run;
    this.conn = conn;
    this.#lateMs = Math.max(0, (at.nowMs < 0 ? this.nowMs() : at.nowMs) - at.startMs);
    this.recorder = recorder;
    this.jar = jar;
    this.step = -1;
    this.#sent = 0;
    this.sending = null;
  }

  get run(): SessionRun {
    return this.#run!;
  }

  /** A request's promise's executor: its resolver is kept for the request's end. */
  protected readonly awaited = (resolve: (response: Response | Promise<Response>) => void): void => {
    this.#resolve = resolve;
  };

  /** The request in flight ended (`got` responses): its response settles its promise. */
  readonly settled = (got: number): void => {
    const resolve = this.#resolve!;
    this.#resolve = null;
    let response: Response;
    try {
      response = this.#exchanged(got);
    } catch (err) {
      return resolve(Promise.reject(err));
    }
    resolve(response);
  };

  /** The request in flight failed (not the target: our own code threw): its promise rejects. */
  readonly settleFailed = (err: unknown): void => {
    const resolve = this.#resolve!;
    this.#resolve = null;
    this.ended();
    resolve(Promise.reject(err));
  };

  /** A gRPC call's exchange failed: the call is no longer in flight, and its promise rejects. */
  protected readonly exchangeFailed = (err: unknown): never => {
    this.ended();
    throw err;
  };

  /** The script function's value or error: the session in progress ends (`SessionEnd.settle`). */
  readonly value = (value: unknown): void => this.current!.settle(value, false);
  readonly error = (err: unknown): void => this.current!.settle(err, true);

  /** The request about to go counts under step `name`; `path` is where its cookies come from. */
  protected stepOf(name: string, path: string): void {
    const recorder = this.recorder;
    this.step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
  }

  /**
   * A request's send time, its latency's start: now, less the session's lateness for its first request.
   * So an open arrival's first request still pays for a generator late to start it, but never for the
   * script's own think time, timers or checks before it, and a closed loop's is timed from its send.
   */
  protected sendTime(nowMs = this.nowMs()): number {
    return this.#sent++ === 0 ? nowMs - this.#lateMs : nowMs;
  }

  /** `performance.now()`, read through the HTTP/1.1 connection's cheaper clock where it has one. */
  protected nowMs(): number {
    const conn = this.conn;
    return conn instanceof Connection ? conn.nowMs() : performance.now();
  }

  /** The request in flight ended: cut the session if the run ended meanwhile. */
  protected ended(): void {
    this.sending = null;
    if (this.#run!.ended.aborted) this.current!.settle(CUT, false);
  }

  /** The exchange's end: the script's response (its bytes copied: the connection reuses its own). */
  #exchanged(got: number): Response {
    this.ended();
    const conn = this.conn!;
    if (!this.counted(this.step, got, conn.lastEventMs - this.sendMs)) {
      return failedResponse(conn, this.#run!.shared.recorder);
    }
    return this.responseOf(conn, this.sessions.requests.url.host, this.#path);
  }

  /** `conn`'s response to a request to `host` and `path`, its cookies kept. */
  protected responseOf(conn: SessionConnection, host: string, path: string): Response {
    const response = conn instanceof Connection
      ? new ScriptResponse(copyKept(conn.keptBytes()), conn)
      : new H2ScriptResponse(conn.keptResponse().snapshot());
    // The jar is made by the first Set-Cookie it keeps (cookies on), or by the script's own `s.cookies`.
    if ((this.jar !== null || this.sessions.options.cookies) && response.mayHaveSetCookie()) {
      const set = response.getAll("set-cookie");
      if (set.length > 0) {
        this.#jarOrNew().set(set, host, path, Date.now());
        // A cookie's value is a secret from now on, as a secret header's is once sent.
        this.sessions.names.sent(
          set.map((line) => ["cookie", /^[^=;]*=([^;]*)/.exec(line)?.[1]?.trim() ?? ""]),
        );
      }
    }
    return response;
  }

  #jarOrNew(): CookieJar {
    return this.jar ??= new CookieJar(this.sessions.options.url.protocol === "https:");
  }

  /**
   * Counts an exchange's end under `step` (`latencyMs` after its send); false when it failed (counted by
   * kind).
   */
  protected counted(step: number, got: number, latencyMs: number): boolean {
    if (got === 0) {
      // Our own stop aborted it: not the target's failure, not counted (as the request is not).
      if (!this.#run!.shared.stopping && step >= 0) this.recorder?.stepError(step);
      return false;
    }
    this.responses++;
    this.recorder?.stepResponse(step, latencyMs * 1000);
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

  get cookies(): SessionCookies {
    return sessionCookies(this.sessions.options.url.host, () => this.jar, () => this.#jarOrNew());
  }
}
