/**
 * @module
 * A worker's sessions of a session script on the engine: one call of the script's default export per
 * arrival (open models) or per turn of a connection (closed models: each connection is a virtual user
 * looping the function), many at once in each worker isolate. Each session gets its `s`
 * (script_session.ts) and its data row; it ends by the script's function, counted as completed, or by a
 * throw, counted as a `script` error by message and file:line and a failed session. Once the run stops
 * (a stop request, the end of the graceful stop) a session is cut as soon as nothing of loadlab's is in
 * progress for it (script_session_end.ts, told by one listener for all: live_sessions.ts). Its
 * connection goes to the next session only after its last request ended, and its `s` sends no more.
 */
import { basename } from "node:path";
import { Connection } from "../http/h1/connection.ts";
import type { LoadConnection } from "../http/load_connection.ts";
import type { SessionRun } from "../load/flow_session.ts";
import type { Session } from "./session.ts";
import { ScriptRequests } from "./script_request.ts";
import { H2Slot } from "../http/h2/slot.ts";
import { H2ArrivalConnection } from "../http/h2/arrival.ts";
import { ScriptRecorder } from "./script_recorder.ts";
import { ScriptNames } from "./script_names.ts";
import { scriptErrorMessage } from "./script_module.ts";
import {
  ScriptSession,
  type ScriptSessionOptions,
  type SessionContext,
  type VirtualUser,
} from "./script_session.ts";
import { CUT } from "./script_session_end.ts";
import type { SessionConnection } from "./script_send.ts";
import { LiveSessions } from "./live_sessions.ts";

const decoder = new TextDecoder();

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
export class ScriptSessions implements SessionContext {
  readonly recorder: ScriptRecorder;
  readonly requests: ScriptRequests;
  /** Its names and messages as results keep them: secrets redacted, one line, bounded. */
  readonly names: ScriptNames;
  #iterations = new Map<number, number>();
  /** Closed loads' virtual users by id: their `s.state` (and jar, with a start hook). */
  #users = new Map<number, VirtualUser>();
  #arrivals = 0;
  /** Sessions in progress, told when their run ends. */
  readonly #live = new LiveSessions<ScriptSession>();

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
    this.#live.add(s, run.ended);
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
  /** How many sessions are in progress. */
  inProgress(): number {
    return this.#live.size;
  }

  /** Every session in progress waits on the script's own code (not a request, not `s.sleep`). */
  idle(): boolean {
    return this.#live.allWaiting();
  }

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
