/**
 * @module
 * A worker's script sessions: one call of the default export per arrival (open) or connection turn (closed).
 * Once the run stops a session is cut when nothing of loadlab's is in progress for it, all hearing the end
 * through one listener; a closed loop's stopping user runs the script's `stop` within the graceful stop.
 */
import { basename } from "node:path";
import { Connection } from "../../http/h1/connection.ts";
import type { LoadConnection } from "../../http/load_connection.ts";
import type { SessionRun } from "../../load/flow_session.ts";
import type { Session } from "../session.ts";
import { ScriptRequests } from "./request.ts";
import { H2Slot } from "../../http/h2/slot.ts";
import { ScriptRecorder } from "./recorder.ts";
import { ScriptNames } from "./names.ts";
import { ScriptSession } from "./session.ts";
import { SessionSender } from "./sender.ts";
import { scriptError, type ScriptModule } from "../module.ts";
import {
  CUT,
  type ScriptConfig,
  type ScriptPlace,
  type SessionChain,
  type SessionContext,
  type SessionCount,
  type VirtualUser,
} from "./context.ts";
import { ScriptOrigins } from "./origins.ts";
import { type ScriptGrpcAnswer, ScriptGrpcRequests } from "./grpc.ts";

const decoder = new TextDecoder();

export class ScriptSessions implements SessionContext {
  readonly recorder: ScriptRecorder;
  readonly requests: ScriptRequests;
  readonly names: ScriptNames;
  readonly grpcAnswers = new WeakMap<object, ScriptGrpcAnswer>();
  readonly grpcRequests: ScriptGrpcRequests;
  readonly origins: ScriptOrigins;
  #sides = 0;
  #users = new Map<number, VirtualUser<ScriptSession, SessionSender>>();
  #arrivals = 0;
  /** The sessions in progress, and the run signal they are told of. */
  readonly #live: ScriptSession[] = [];
  readonly #watched = new WeakSet<AbortSignal>();
  /** Each `s` is made non-extensible, but by a runtime's function that no script code gives it to (k6's). */
  readonly #held: boolean;

  readonly script: ScriptConfig;
  readonly #fn: (s: Session) => unknown;

  constructor(readonly module: ScriptModule, readonly place: ScriptPlace) {
    const { config } = place, script = this.script = config.script!, url = new URL(config.url);
    this.#fn = module.run;
    this.#held = Symbol.for("loadlab.runtimeHeld") in module.run;
    // Named by the script's file; a locustfile's conversion (NAME.py.js) by the locustfile.
    this.recorder = new ScriptRecorder(basename(script.path).replace(/\.py\.js$/, ".py"));
    this.requests = new ScriptRequests(url);
    this.grpcRequests = new ScriptGrpcRequests(url);
    this.names = new ScriptNames(script.env);
    this.origins = new ScriptOrigins(this.requests, script.routes, script.keepHost, config.tls);
  }

  sideId(): number {
    return this.place.workerIndex * 1_000_000 + 500_000 + this.#sides++ % 500_000;
  }

  run(
    run: SessionRun,
    load: LoadConnection,
    arrivalMs: number,
    next: SessionChain["next"] = null,
  ): Promise<number> {
    if (!(load instanceof Connection || load instanceof H2Slot)) {
      return Promise.reject(
        new TypeError("session scripts need an HTTP/1.1 connection or an HTTP/2 stream slot"),
      );
    }
    return new Promise((done) => {
      if (!this.#begin({ run, load, next, done }, arrivalMs, -1)) done(0);
    });
  }

  handOn(chain: SessionChain, responses: number, nowMs: number): void {
    const next = chain.next;
    // A session with no response ends the chain: its loop backs off before the next (a down target).
    if (next === null || responses === 0 || chain.run.ended.aborted || next(1, nowMs) === 0) {
      const user = next === null || !this.module.stop ? undefined : this.#user(this.#vuOf(chain.load));
      const over = responses > 0 || chain.run.stopping?.aborted;
      if (user === undefined || user.stopped || user.sessions === 0 || !over || chain.run.ended.aborted) {
        return chain.done(responses);
      }
      user.stopped = true;
    }
    let started = false;
    try {
      started = this.#begin(chain, -1, nowMs);
    } finally {
      if (!started) chain.done(0);
    }
  }

  #begin(chain: SessionChain, arrivalMs: number, nowMs: number): boolean {
    const o = this.place, { start, stop } = this.module;
    const load = chain.load;
    const closed = arrivalMs < 0;
    // A closed loop's session starts as its connection's last one ended (the loop's clock read then).
    const startMs = closed ? load.lastEventMs : arrivalMs;
    const recorder = startMs >= o.originMs ? this.recorder : null;
    let data: Record<string, string> | null = null;
    if (o.feeder !== null) {
      const row = o.feeder.next();
      if (row === null) {
        recorder?.noData(0);
        return false;
      }
      data = rowObject(o.config.data?.columns ?? [], row);
    }
    const vu = closed ? this.#vuOf(load) : this.#arrivals++ * o.workerCount + o.workerIndex + 1;
    const user = closed ? chain.user ??= this.#user(vu) : { state: {}, jar: null, sessions: 0 };
    const iteration = user.sessions++;
    const sender = user.sender ??= new SessionSender(this, user, vu);
    const s = new ScriptSession(sender, chain.run, iteration, data, this.#held);
    sender.begin(s, chain, startMs, recorder, nowMs);
    recorder?.sessionStarted(0);
    this.#watch(chain.run.ended, stop ? chain.run.stopping : undefined);
    s.liveAt = this.#live.length;
    this.#live.push(s);
    // The script's function, after its `start` on the user's first session; no frame of ours around it.
    let body: unknown;
    try {
      body = user.stopped ? stop!(s) : start && iteration === 0 ? this.#started(s) : this.#fn(s);
    } catch (err) {
      body = Promise.reject(err);
    }
    s.endWithBody(body);
    return true;
  }

  counted(s: ScriptSession, outcome: unknown, failed: boolean, at: SessionCount, nowMs: number): void {
    const { run, recorder } = at;
    this.#leave(s);
    if (failed) {
      if (run.shared.stopping) return;
      const { message: thrown, where } = scriptError(outcome, this.script.path);
      const message = this.names.shownError(thrown, where);
      run.shared.recorder.recordError(nowMs, "script", message);
      recorder?.sessionFailed(0, (nowMs - at.startMs) * 1000);
    } else if (outcome === CUT) {
      if (s.pending) this.#pendingAtStop(run, recorder);
    } else if (!run.ended.aborted) recorder?.sessionCompleted(0, (nowMs - at.startMs) * 1000);
  }

  /** A closed loop's virtual user: its connection slot's, numbered across the workers. */
  #vuOf(load: SessionChain["load"]): number {
    return (load.id % 1_000_000) * this.place.workerCount + this.place.workerIndex + 1;
  }

  #user(vu: number): VirtualUser<ScriptSession, SessionSender> {
    let user = this.#users.get(vu);
    if (user === undefined) this.#users.set(vu, user = { state: {}, jar: null, sessions: 0 });
    return user;
  }

  async #started(s: ScriptSession): Promise<unknown> {
    await this.module.start!(s);
    return await this.#fn(s);
  }

  /** A session that waited on its own promise past the graceful stop: a `script` error, a failed session. */
  #pendingAtStop(run: SessionRun, recorder: ScriptRecorder | null): void {
    const message = "session still waiting at the end of the graceful stop on neither a request nor " +
      `s.sleep: cut (${basename(this.script.path)})`;
    run.shared.recorder.recordError(performance.now(), "script", message);
    recorder?.sessionFailed(0);
  }

  /** `s` is no longer in progress: the last session takes its slot. */
  #leave(s: ScriptSession): void {
    const at = s.liveAt, live = this.#live;
    if (at < 0 || live[at] !== s) return;
    const last = live.pop()!;
    if (last !== s) {
      live[at] = last;
      last.liveAt = at;
    }
    s.liveAt = -1;
  }

  /** The run's signals, and a connection's own end (a ramp-down's) for the sessions on it. */
  #watch(ended: AbortSignal, stopping?: AbortSignal): void {
    if (this.#watched.has(ended)) return;
    for (const [signal, end] of [[ended, true], [stopping, false]] as const) {
      if (signal === undefined || this.#watched.has(signal)) continue;
      this.#watched.add(signal);
      // A copy: each session told may leave the list (and another take its slot).
      const told = () => this.#live.slice().forEach((s) => end ? s.runEnded() : s.runStopping());
      signal.addEventListener("abort", told, { once: true });
    }
  }

  inProgress(): number {
    return this.#live.length;
  }

  /** Some session is in progress and every one waits on the script's own code: nothing will be sent. */
  idle(): boolean {
    for (const s of this.#live) if (!s.waitingOnOwnCode()) return false;
    return this.#live.length > 0;
  }

  unhandled(reason: unknown, shared: SessionRun["shared"]): void {
    const { message: thrown, where } = scriptError(reason, this.script.path);
    const message = this.names.shownError(`unhandled rejection: ${thrown}`, where);
    shared.recorder.recordError(performance.now(), "script", message);
  }
}

function rowObject(columns: readonly string[], row: Uint8Array[]): Record<string, string> {
  const data: Record<string, string> = {};
  for (let k = 0; k < columns.length; k++) data[columns[k]] = decoder.decode(row[k]);
  return data;
}
