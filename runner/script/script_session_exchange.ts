/**
 * @module
 * A virtual user's request in flight and how its end is counted: the base of `SessionSender`, holding
 * connection, send time, step and resolver once per user. A failed exchange gives a status-0 response
 * (`failure`) and the script goes on; one that ends after the run did cuts its session.
 */
import { Connection } from "../http/h1/connection.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import type { SessionRun } from "../load/flow_session.ts";
import type { Response, SessionCookies } from "./session.ts";
import { copyKept, failedResponse, H2ScriptResponse, ScriptResponse } from "./script_response.ts";
import { reservedNameProblem, type ScriptRecorder, SESSION_STEP } from "./script_recorder.ts";
import { CUT, type SessionEnd } from "./script_session_end.ts";
import type { SessionContext } from "./script_session_context.ts";
import type { SessionConnection } from "./script_send.ts";
import { sessionCookies } from "./session_cookies.ts";
import { scriptText } from "./script_text.ts";

export abstract class SessionExchange {
  protected readonly sessions: SessionContext;
  protected current: SessionEnd | null = null;
  #run: SessionRun | null = null;
  protected conn: SessionConnection | null = null;
  responses = 0;
  /** How late the session began against its start (an open arrival's queue or wait for a connection). */
  #lateMs = 0;
  protected recorder: ScriptRecorder | null = null;
  /** Made when first used: a Set-Cookie kept (cookies on) or the script's own `s.cookies.set`. */
  protected jar: CookieJar | null = null;
  protected step = -1;
  #sent = 0;
  /** The request in flight (one at a time: the session has one connection), else null. */
  protected sending: Promise<unknown> | null = null;
  protected sendMs = 0;
  #path = "";
  /** The resolver of the request in flight's promise (`sending`), but a gRPC call's. */
  #resolve: ((response: Response | Promise<Response>) => void) | null = null;

  constructor(sessions: SessionContext) {
    this.sessions = sessions;
  }

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

  protected readonly awaited = (resolve: (response: Response | Promise<Response>) => void): void => {
    this.#resolve = resolve;
  };

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

  protected readonly exchangeFailed = (err: unknown): never => {
    this.ended();
    throw err;
  };

  readonly value = (value: unknown): void => this.current!.settle(value, false);
  readonly error = (err: unknown): void => this.current!.settle(err, true);

  protected stepOf(name: string, path: string): void {
    const recorder = this.recorder;
    this.step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
  }

  /** A request's send time: now, less the session's lateness for its first request (never its think time). */
  protected sendTime(nowMs = this.nowMs()): number {
    return this.#sent++ === 0 ? nowMs - this.#lateMs : nowMs;
  }

  /** `performance.now()`, read through the HTTP/1.1 connection's cheaper clock where it has one. */
  protected nowMs(): number {
    const conn = this.conn;
    return conn instanceof Connection ? conn.nowMs() : performance.now();
  }

  protected ended(): void {
    this.sending = null;
    if (this.#run!.ended.aborted) this.current!.settle(CUT, false);
  }

  #exchanged(got: number): Response {
    this.ended();
    const conn = this.conn!;
    if (!this.counted(this.step, got, conn.lastEventMs - this.sendMs)) {
      return failedResponse(conn, this.#run!.shared.recorder);
    }
    return this.responseOf(conn, this.sessions.requests.url.host, this.#path);
  }

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
