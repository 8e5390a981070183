/**
 * @module
 * A worker's sessions of a session script on the engine: one call of the script's default export per
 * arrival (open models) or per turn of a connection (closed models: each connection is a virtual user
 * looping the function), many at once in each worker isolate. Each session gets its `s`
 * (session.ts) and its data row; it ends by the script's function, counted as completed, or by a
 * throw, counted as a `script` error by message and file:line and a failed session. Once the run stops
 * (a stop request, the end of the graceful stop) a session is cut as soon as nothing of loadlab's is in
 * progress for it (end.ts, told by one listener for all: live.ts). Its
 * connection goes to the next session only after its last request ended, and its `s` sends no more.
 */
import { basename } from "node:path";
import { Connection } from "../../http/h1/connection.ts";
import type { LoadConnection } from "../../http/load_connection.ts";
import type { SessionRun } from "../../load/flow_session.ts";
import type { Session } from "../session.ts";
import { ScriptRequests } from "./request.ts";
import { H2Slot } from "../../http/h2/slot.ts";
import { H2ArrivalConnection } from "../../http/h2/arrival.ts";
import { ScriptRecorder } from "./recorder.ts";
import { ScriptNames } from "./names.ts";
import { scriptError } from "../module.ts";
import { ScriptSession } from "./session.ts";
import { SessionSender } from "./sender.ts";
import type {
  ScriptSessionOptions,
  SessionChain,
  SessionContext,
  SessionCount,
  VirtualUser,
} from "./context.ts";
import { ScriptOrigins } from "./origins.ts";
import { CUT } from "./end.ts";
import { LiveSessions } from "./live.ts";
import { type ScriptGrpcAnswer, ScriptGrpcRequests } from "./grpc.ts";

const decoder = new TextDecoder();

/** Runs one worker's sessions of a script. */
export class ScriptSessions implements SessionContext {
  readonly recorder: ScriptRecorder;
  readonly requests: ScriptRequests;
  /** Its names and messages as results keep them: secrets redacted, one line, bounded. */
  readonly names: ScriptNames;
  readonly grpcAnswers = new WeakMap<object, ScriptGrpcAnswer>();
  /** Its gRPC calls' HEADERS frames, encoded once per method and metadata. */
  readonly grpcRequests: ScriptGrpcRequests;
  readonly origins: ScriptOrigins;
  /** Connections dialled beside the load's so far (their ids follow the load's in the worker's range). */
  #sides = 0;
  /** Closed loads' virtual users by id: their `s.state` (and jar, with a start hook). */
  #users = new Map<number, VirtualUser<ScriptSession, SessionSender>>();
  #arrivals = 0;
  /** Sessions in progress, told when their run ends. */
  readonly #live = new LiveSessions<ScriptSession>();

  constructor(readonly fn: (s: Session) => unknown, readonly options: ScriptSessionOptions, name: string) {
    this.recorder = new ScriptRecorder(name);
    this.requests = new ScriptRequests(options.url, undefined, options.routes);
    this.grpcRequests = new ScriptGrpcRequests(options.url);
    this.names = new ScriptNames(options.env);
    this.origins = new ScriptOrigins(this.requests);
  }

  /** An id of the worker's range (the load's from its start, side connections from its middle). */
  sideId(): number {
    return this.options.workerIndex * 1_000_000 + 500_000 + this.#sides++ % 500_000;
  }

  /**
   * One session on `load` from `arrivalMs` (negative: now, a closed loop), and with `next` (the closed
   * loop's grant) the connection's next ones as each ends; resolves with the last one's responses.
   */
  run(
    run: SessionRun,
    load: LoadConnection,
    arrivalMs: number,
    next: SessionChain["next"] = null,
  ): Promise<number> {
    if (!(load instanceof Connection || load instanceof H2Slot || load instanceof H2ArrivalConnection)) {
      return Promise.reject(
        new TypeError("session scripts need an HTTP/1.1 connection or an HTTP/2 stream slot"),
      );
    }
    return new Promise((done) => {
      if (!this.#begin({ run, load, next, done }, arrivalMs, -1)) done(0);
    });
  }

  /** The session's connection is free: the chain's next session starts while its loop grants one. */
  handOn(chain: SessionChain, responses: number, nowMs: number): void {
    const next = chain.next;
    // A session with no response ends the chain: its loop backs off before the next (a down target).
    if (next === null || responses === 0 || chain.run.ended.aborted || next(1, nowMs) === 0) {
      return chain.done(responses);
    }
    let started = false;
    try {
      started = this.#begin(chain, -1, nowMs);
    } finally {
      // The loop goes on (it backs off first) whatever stopped the next session from starting.
      if (!started) chain.done(0);
    }
  }

  /**
   * Starts a session of `chain` from `arrivalMs` (negative: now), `nowMs` the clock just read (else
   * negative); false when the data rows ran out.
   */
  #begin(chain: SessionChain, arrivalMs: number, nowMs: number): boolean {
    const o = this.options;
    const load = chain.load;
    const closed = arrivalMs < 0;
    // A closed loop's session starts as its connection's last one ended (the loop's clock read then).
    const startMs = closed ? load.lastEventMs : arrivalMs;
    const recorder = startMs >= o.originMs ? this.recorder : null;
    let data: Record<string, string> | null = null;
    if (o.feeder !== null) {
      const row = o.feeder.next();
      if (row === null) {
        recorder?.noData();
        return false;
      }
      data = rowObject(o.columns, row);
    }
    // A closed loop's virtual user is its connection; an open arrival is a user of its own.
    const local = closed ? load.id % 1_000_000 : this.#arrivals++;
    const vu = local * o.workerCount + o.workerIndex + 1;
    const user = closed ? this.#user(vu) : { state: {}, jar: null, sessions: 0 };
    const iteration = user.sessions++;
    // A user's sessions share its sender; each gets its own small `s` (a kept one is refused).
    const sender = user.sender ??= new SessionSender(this, user, vu);
    const s = new ScriptSession(sender, chain.run, iteration, data);
    sender.begin(s, chain, startMs, recorder, nowMs);
    recorder?.sessionStarted();
    this.#live.add(s, chain.run.ended);
    // The script's function, after its `start` on the user's first session; no frame of ours around it
    // (a session waiting holds as few as it can): its end counts it (`counted`) and hands its connection on.
    let body: unknown;
    try {
      body = o.start && iteration === 0 ? this.#started(s) : this.fn(s);
    } catch (err) {
      body = Promise.reject(err);
    }
    // A session still running when the run ends is cut once nothing of loadlab's is in progress for it.
    s.endWithBody(body);
    return true;
  }

  /** A session's outcome, counted as it ends: completed, failed, or cut (neither, unless left pending). */
  counted(s: ScriptSession, outcome: unknown, failed: boolean, at: SessionCount): void {
    const { run, recorder } = at;
    this.#live.delete(s);
    if (failed) {
      // A session cut by the run's own stop is neither completed nor failed.
      if (run.shared.stopping) return;
      const { message: thrown, where } = scriptError(outcome, this.options.path);
      const message = this.names.shownError(thrown, where);
      run.shared.recorder.recordError(at.nowMs, "script", message);
      recorder?.sessionFailed();
    } else if (outcome === CUT) {
      if (s.pending) this.#pendingAtStop(run, recorder);
    } else if (!run.ended.aborted) recorder?.sessionCompleted((at.nowMs - at.startMs) * 1000);
  }

  /** Closed-load user `vu`, made at its first session. */
  #user(vu: number): VirtualUser<ScriptSession, SessionSender> {
    let user = this.#users.get(vu);
    if (user === undefined) this.#users.set(vu, user = { state: {}, jar: null, sessions: 0 });
    return user;
  }

  /** The user's first session with a `start`: it, then the script's function. */
  async #started(s: ScriptSession): Promise<unknown> {
    await this.options.start!(s);
    return await this.fn(s);
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

  /** How many sessions are in progress. */
  inProgress(): number {
    return this.#live.size;
  }

  /** Every session in progress waits on the script's own code (not a request, not `s.sleep`). */
  idle(): boolean {
    return this.#live.allWaiting();
  }

  /** Counts an unhandled rejection of a script's promise (it ends no session: none is known). */
  unhandled(reason: unknown, shared: SessionRun["shared"]): void {
    const { message: thrown, where } = scriptError(reason, this.options.path);
    const message = this.names.shownError(`unhandled rejection: ${thrown}`, where);
    shared.recorder.recordError(performance.now(), "script", message);
  }
}

function rowObject(columns: readonly string[], row: Uint8Array[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (let k = 0; k < columns.length; k++) data[columns[k]] = decoder.decode(row[k]);
  return data;
}
