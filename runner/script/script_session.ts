/**
 * @module
 * Sessions of a session script on the engine: one call of the script's default export per arrival (open
 * models) or per turn of a connection (closed models: each connection is a virtual user looping the
 * function), many at once in each worker isolate. Each `s.get(...)` is an exchange on the arrival's
 * connection (connection.ts: the same transports, TLS and recording as fixed requests), so requests count
 * in the run's intervals and, by name, in the script's steps (script_recorder.ts) and under the endpoint
 * of that name (the worker's recorder adds it on first use; results merge endpoints by name). The first request's
 * latency counts from the arrival's intended time (the open models' schedule), later ones from their
 * send, as a flow's do (flow_session.ts). A throw ends that session as a `script` error counted by
 * message and file:line; a failed request gives a status-0 response and the script goes on (its error
 * is counted by kind). A session has one request in flight at a time: another sent meanwhile (not
 * awaited) is refused as a `script` error at its line, never sent on a connection of its own, and so is
 * a request on an `s` kept past its session (the connection is another session's by then). Once the
 * run stops (a stop request, the end of the graceful stop) a session is cut as soon as nothing of
 * loadlab's is in progress for it: its sleeps end, and a request or sleep after the stop never returns,
 * so no script loop spins on them and a session waiting on its own promise cannot hold the worker.
 */
import { basename } from "node:path";
import { Connection } from "../http/h1/connection.ts";
import type { LoadConnection } from "../http/load_connection.ts";
import { CookieJar } from "../http/cookie_jar.ts";
import { KEEP_ALL } from "../load/flow_plan.ts";
import type { SessionRun } from "../load/flow_session.ts";
import type { Feeder } from "../load/feeder.ts";
import { sleepUnlessAborted } from "../../system/sleep.ts";
import type { Response, Session, SessionCookies } from "./session.ts";
import { ScriptRequests } from "./script_request.ts";
import { copyKept, H2ScriptResponse, NO_RESPONSE, ScriptResponse } from "./script_response.ts";
import { H2Slot } from "../http/h2/slot.ts";
import { H2ArrivalConnection } from "../http/h2/arrival.ts";
import type { H2Request } from "../http/h2/request.ts";
import type { EncodedRequest } from "../http/request.ts";
import { ScriptRecorder, SESSION_STEP } from "./script_recorder.ts";
import { ScriptNames } from "./script_names.ts";
import { scriptErrorMessage } from "./script_module.ts";
import type { RequestOptions } from "./session.ts";

const NO_VALUES: Uint8Array[] = [];
const NO_HEADERS: ReadonlyArray<readonly [string, string]> = [];
const NO_OPTIONS: RequestOptions = {};
/** What a session's race resolves with when the run ended under it (script code never returns it). */
const CUT = Symbol("cut");
/** A request or sleep of a session the run ended: it never returns (the session is cut, not spun on). */
const NEVER = new Promise<never>(() => {});
const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** The most bytes of one response a session keeps (what `text()` can read); past it `body-too-large`. */
export const SCRIPT_KEPT_BYTES = 16 * 1024 * 1024;

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
interface VirtualUser {
  state: Record<string, unknown>;
  jar: CookieJar | null;
}

/** Where a session runs and is counted (ScriptSessions' `run` to its end). */
interface SessionPlace {
  run: SessionRun;
  load: SessionConnection;
  user: VirtualUser;
  startMs: number;
  recorder: ScriptRecorder | null;
}

/** What `run` resolves with when no session starts (the data rows ran out). */
const NO_SESSION = Promise.resolve(0);

/** Runs one worker's sessions of a script. */
export class ScriptSessions {
  readonly recorder: ScriptRecorder;
  readonly requests: ScriptRequests;
  /** Its names and messages as results keep them: secrets redacted, one line, bounded. */
  readonly names: ScriptNames;
  #iterations = new Map<number, number>();
  /** Closed loads' virtual users by id: their `s.state` (and jar, with a start hook). */
  #users = new Map<number, VirtualUser>();
  #arrivals = 0;
  /**
   * Sessions in progress, told when their run ends by one listener for them all: a listener each on
   * the run's signal would cost every session a closure and its removal a scan of thousands.
   */
  readonly #live = new Set<ScriptSession>();
  #watched: AbortSignal | null = null;

  constructor(readonly fn: (s: Session) => unknown, readonly options: ScriptSessionOptions, name: string) {
    this.recorder = new ScriptRecorder(name);
    this.requests = new ScriptRequests(options.url);
    this.names = new ScriptNames(options.env);
  }

  /** One session on `load` from `arrivalMs` (negative: now, a closed loop); resolves with its responses. */
  run(run: SessionRun, load: LoadConnection, arrivalMs: number): Promise<number> {
    if (!(load instanceof Connection || load instanceof H2Slot || load instanceof H2ArrivalConnection)) {
      return Promise.reject(
        new TypeError("session scripts need an HTTP/1.1 connection or an HTTP/2 stream slot"),
      );
    }
    const o = this.options;
    const closed = arrivalMs < 0;
    const startMs = closed ? performance.now() : arrivalMs;
    const recorder = startMs >= o.originMs ? this.recorder : null;
    let data: Record<string, string> = {};
    if (o.feeder !== null) {
      const row = o.feeder.next();
      if (row === null) {
        recorder?.noData();
        return NO_SESSION;
      }
      data = rowObject(o.columns, row);
    }
    // A closed loop's virtual user is its connection; an open arrival is a user of its own.
    const local = closed ? load.id % 1_000_000 : this.#arrivals++;
    const vu = local * o.workerCount + o.workerIndex + 1;
    const iteration = this.#iterations.get(vu) ?? 0;
    if (closed) this.#iterations.set(vu, iteration + 1);
    const user = closed ? this.#user(vu) : { state: {}, jar: null };
    const s = new ScriptSession(this, run, load, startMs, recorder, { data, vu, iteration, user });
    recorder?.sessionStarted();
    this.#watch(run.ended);
    this.#live.add(s);
    // The script's function, after its `start` on the user's first session; no frame of ours around it
    // otherwise (a session waiting holds as few as it can).
    let body: unknown;
    try {
      body = o.start && iteration === 0 ? this.#started(s) : this.fn(s);
    } catch (err) {
      body = Promise.reject(err);
    }
    return this.#session(s, body, { run, load, user, startMs, recorder });
  }

  /** The session from its call to its end: its outcome counted, its jar kept, its connection handed on. */
  async #session(s: ScriptSession, body: unknown, at: SessionPlace): Promise<number> {
    const { run, load, user, startMs, recorder } = at;
    try {
      // A session still running when the run ends is cut once nothing of loadlab's is in progress for it.
      s.endWith(body);
      const outcome = await s.outcome;
      if (outcome === CUT) {
        if (s.pending) this.#pendingAtStop(run, recorder);
      } else if (!run.ended.aborted) recorder?.sessionCompleted((performance.now() - startMs) * 1000);
    } catch (err) {
      // A session cut by the run's own stop is neither completed nor failed.
      if (!run.shared.stopping) {
        const message = this.names.shown(scriptErrorMessage(err, this.options.path));
        run.shared.recorder.recordError(performance.now(), "script", message);
        recorder?.sessionFailed();
      }
    } finally {
      s.over = true;
      if (this.options.start) user.jar = s.jar;
      this.#live.delete(s);
      // A request the script did not await ends before the connection goes to another session.
      const inFlight = s.settled();
      if (inFlight !== null) await inFlight;
      load.endSession();
      // When the session ended, not its last exchange: a closed loop starts no session past the load's end.
      load.lastEventMs = performance.now();
    }
    return s.responses;
  }

  /** Closed-load user `vu`, made at its first session. */
  #user(vu: number): VirtualUser {
    let user = this.#users.get(vu);
    if (user === undefined) this.#users.set(vu, user = { state: {}, jar: null });
    return user;
  }

  /** The user's first session with a `start`: it, then the script's function. */
  async #started(s: ScriptSession): Promise<unknown> {
    await this.options.start!(s);
    return await this.fn(s);
  }

  /** Listens once to the run's end (`ended`, shared by the run's sessions) for every live session. */
  #watch(ended: AbortSignal): void {
    if (this.#watched === ended) return;
    this.#watched = ended;
    ended.addEventListener("abort", () => {
      for (const s of this.#live) s.runEnded();
    }, { once: true });
  }

  /**
   * A session that waited on its own promise (neither a request nor `s.sleep`) past the graceful stop:
   * the script's doing, so a `script` error and a failed session; the run ends on time all the same.
   */
  #pendingAtStop(run: SessionRun, recorder: ScriptRecorder | null): void {
    const message = "session still waiting at the end of the graceful stop on neither a request nor " +
      `s.sleep: cut (${basename(this.options.path)})`;
    run.shared.recorder.recordError(performance.now(), "script", message);
    recorder?.sessionFailed();
  }

  /** Counts an unhandled rejection of a script's promise (it ends no session: none is known). */
  unhandled(reason: unknown, shared: SessionRun["shared"]): void {
    const message = this.names.shown(`unhandled rejection: ${scriptErrorMessage(reason, this.options.path)}`);
    shared.recorder.recordError(performance.now(), "script", message);
  }
}

function rowObject(columns: readonly string[], row: Uint8Array[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (let k = 0; k < columns.length; k++) data[columns[k]] = decoder.decode(row[k]);
  return data;
}

/** A refusal of a request the script wrote (bad path, header, another origin): ends the session. */
class ScriptRequestError extends Error {
  override name = "ScriptRequestError";
}

/** The `s` a script's default export receives. */
class ScriptSession implements Session {
  readonly data: Readonly<Record<string, string>>;
  readonly vu: number;
  readonly iteration: number;
  readonly state: Record<string, unknown>;
  responses = 0;
  readonly #sessions: ScriptSessions;
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
  #sleeps = 0;
  /** The sleep in progress: its promise's resolve and its timer (one timer, no listener, per sleep). */
  #wake: (() => void) | null = null;
  #wakeTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  #onWake: (() => void) | null = null;
  /**
   * The session's end: the script function's value or error, or `CUT` once the run ended and nothing of
   * loadlab's is in progress for it, whichever comes first (one promise: no race of two).
   */
  readonly outcome: Promise<unknown>;
  #resolve: (value: unknown) => void = () => {};
  #reject: (err: unknown) => void = () => {};
  /** Cut at the end of the graceful stop while waiting on the script's own promise. */
  pending = false;
  /** The session ended: its connection is another session's, so a request kept past it is refused. */
  over = false;

  constructor(
    sessions: ScriptSessions,
    run: SessionRun,
    conn: SessionConnection,
    startMs: number,
    recorder: ScriptRecorder | null,
    ids: { data: Record<string, string>; vu: number; iteration: number; user: VirtualUser },
  ) {
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
    this.outcome = new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /** The session's cookie jar as it ends (kept for the user's next session with a start hook). */
  get jar(): CookieJar | null {
    return this.#jar;
  }

  /** The run ended: cut the session now, unless a request of its is in flight (its end cuts it). */
  runEnded(): void {
    if (!this.#run.ended.aborted) return;
    if (this.#sending === null) {
      this.pending = this.#sleeps === 0 && this.#run.shared.stopping;
      this.#cut();
    }
    // A think time ends at once when the run stops.
    this.#wakeUp();
  }

  #cut(): void {
    this.#resolve(CUT);
  }

  /** The script function's result (a promise or a value) ends the session, unless it was cut first. */
  endWith(body: unknown): void {
    if (body instanceof Promise) body.then(this.#resolve, this.#reject);
    else this.#resolve(body);
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
    if (this.#run.ended.aborted) {
      this.#cut();
      return NEVER;
    }
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
    const run = this.#run;
    const requests = this.#sessions.requests;
    let headers: ReadonlyArray<readonly [string, string]> = options.headers === undefined
      ? NO_HEADERS
      : Object.entries(options.headers);
    let body = typeof options.body === "string" ? encoder.encode(options.body) : options.body;
    if (options.json !== undefined) {
      body = encoder.encode(JSON.stringify(options.json));
      if (!headers.some(([n]) => n.toLowerCase() === "content-type")) {
        headers = [...headers, ["content-type", "application/json"]];
      }
    }
    const path = requests.pathOf(target);
    if (typeof path !== "string") throw new ScriptRequestError(path.problem);
    const jar = this.#jar;
    const cookieLine = jar === null ? null : jar.line(requests.url.host, path, Date.now());
    const conn = this.#conn;
    const h1 = conn instanceof Connection;
    const encoded = h1
      ? requests.encode(method, path, headers, body, cookieLine)
      : requests.encodeH2(method, path, headers, body, cookieLine === null ? null : cookieValue(cookieLine));
    if ("problem" in encoded) throw new ScriptRequestError(encoded.problem);
    const recorder = this.#recorder;
    const names = this.#sessions.names;
    if (headers !== NO_HEADERS) names.sent(headers);
    const name = names.shown(options.name ?? encoded.defaultName);
    this.#step = recorder === null ? -1 : recorder.step(name);
    this.#path = path;
    // Its endpoint by the same name; encodings are cached and shared, so another endpoint gets a copy.
    const endpoint = run.shared.recorder.endpointIndex(name);
    const sent = encoded.request.endpoint === endpoint ? encoded.request : { ...encoded.request, endpoint };
    const timeoutMs = options.timeoutMs;
    // Opened first, so this request's own timeout counts from its send.
    if (timeoutMs !== undefined && !conn.isOpen) {
      return conn.open().then((opened) => opened ? this.#write(sent, timeoutMs) : 0);
    }
    return this.#write(sent, timeoutMs);
  }

  #write(sent: EncodedRequest | H2Request, timeoutMs: number | undefined): Promise<number> {
    const conn = this.#conn;
    // The first request goes at the arrival's intended time; later ones when the script sends them.
    const sendMs = this.#sent++ === 0 ? this.#startMs : performance.now();
    this.#sendMs = sendMs;
    const exchange = conn instanceof Connection
      ? exchangeH1(conn, sendMs, sent as EncodedRequest)
      : conn.exchangeStep(sendMs, sent as H2Request, NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
    if (timeoutMs !== undefined && conn.deadlineMs !== Infinity) {
      conn.deadlineMs = performance.now() + timeoutMs;
    }
    return exchange;
  }

  /** The request in flight ended: cut the session if the run ended meanwhile. */
  #ended(): void {
    this.#sending = null;
    if (this.#run.ended.aborted) this.#cut();
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

  sleep(ms: number): Promise<void> {
    if (this.#run.ended.aborted) {
      this.#cut();
      return NEVER;
    }
    this.#sleeps++;
    // Sleeps at once (not awaited) are rare: each but the first listens to the run's end itself.
    if (this.#wake !== null) return sleepUnlessAborted(ms, this.#run.ended).then(() => void this.#sleeps--);
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      this.#wakeTimer = setTimeout(this.#onWake ??= () => this.#wakeUp(), Math.max(0, ms));
    });
  }

  /** Ends the session's sleep, if it sleeps: its timer fired, or the run ended. */
  #wakeUp(): void {
    const wake = this.#wake;
    if (wake === null) return;
    clearTimeout(this.#wakeTimer);
    this.#wake = null;
    this.#sleeps--;
    wake();
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

/**
 * The refusal of a request sent while the session's previous one is in flight: a rejected promise (a
 * `script` error at the caller's line when awaited or dropped), never a second connection.
 */
function overlapRefusal(method: string): Promise<Response> {
  return Promise.reject(
    new ScriptRequestError(
      `s.${method.toLowerCase()}() while the session's previous request is still in flight: await each ` +
        "request (a session sends one at a time, on its connection)",
    ),
  );
}

/**
 * The refusal of a request on a session that has ended (its `s` kept by the script past it): a `script`
 * error at the caller's line, never a request on the connection another session now has.
 */
function overRefusal(method: string): Promise<Response> {
  return Promise.reject(
    new ScriptRequestError(
      `s.${method.toLowerCase()}() after its session ended: a session's \`s\` sends only during that ` +
        "session (keep what outlives it in s.state, and call the `s` each session receives)",
    ),
  );
}

/** What a session's requests go on: an HTTP/1.1 connection, an h2 stream slot, or a per-arrival h2 lane. */
type SessionConnection = Connection | H2Slot | H2ArrivalConnection;

/** An HTTP/1.1 exchange of `request` that keeps its response for the script. */
function exchangeH1(conn: Connection, sendMs: number, request: EncodedRequest): Promise<number> {
  conn.prepareStep(NO_VALUES, null, KEEP_ALL, SCRIPT_KEPT_BYTES);
  return conn.exchange(sendMs, 1, request);
}

/** The value of the jar's `Cookie: ...\r\n` line (HTTP/2 sends it as a `cookie` field). */
function cookieValue(line: Uint8Array): string {
  return decoder.decode(line.subarray(8, line.length - 2));
}
