/**
 * @module
 * The `s` a session script's default export receives: its identity, think times and end (`CUT` once the run
 * ended). Requests go to its user's `SessionSender`, so a waiting session holds only this small object.
 */
import type { SessionRun } from "../../load/flow_session.ts";
import type {
  BatchLimits,
  GrpcParams,
  GrpcResponse,
  RequestOptions,
  Response,
  Session,
  SessionCookies,
  SessionGrpc,
} from "../session.ts";
import type { ScriptGrpcSchema } from "./grpc_schema.ts";
import { sleepUnlessAborted } from "../../../system/sleep.ts";
import { type Sleeper, SleepQueue } from "../../../system/sleep_queue.ts";
import type { ResponseThen, SessionSender } from "./sender.ts";
import { NO_OPTIONS, overRefusal } from "./send.ts";
import { CUT } from "./context.ts";
import { COUNT_ERROR, type ScriptWsErrorKind } from "./ws_stats.ts";

/** A request or sleep of a session the run ended: it never returns (the session is cut, not spun on). */
const NEVER = new Promise<never>(() => {});
const SLEEPS = new SleepQueue();

/** A session: whichever of its function and its cut ends first ends it, once. */
export class ScriptSession implements Session, Sleeper {
  readonly iteration: number;
  readonly #sender: SessionSender;
  #data: Record<string, string> | null;
  // Private, behind accessors: a script that freezes its `s` cannot stop loadlab writing them.
  #pending = false;
  #liveAt = -1;
  readonly #run: SessionRun;
  #settled = false;
  #sleeps = 0;
  #wake: ((value?: PromiseLike<void>) => void) | null = null;
  #sleepNo = 0;
  /** A runtime's own (k6's): its sleeps run on through the graceful stop, and a cut one rejects. */
  readonly #held: boolean;

  constructor(
    sender: SessionSender,
    run: SessionRun,
    iteration: number,
    data: Record<string, string> | null,
    held: boolean,
  ) {
    this.#run = run;
    this.#sender = sender;
    this.iteration = iteration;
    this.#data = data;
    this.#held = held;
    // A script that re-parents `s` or shadows its methods fails at its line, not in the engine.
    if (!held) Object.preventExtensions(this);
  }

  /** Cut at the end of the graceful stop while waiting on the script's own promise. */
  get pending(): boolean {
    return this.#pending;
  }

  get liveAt(): number {
    return this.#liveAt;
  }

  set liveAt(at: number) {
    this.#liveAt = at;
  }

  /** Waiting on the script's own code: no request of its in flight and no `s.sleep` (a count's idle rule). */
  waitingOnOwnCode(): boolean {
    return this.#sleeps === 0 && !this.#sender.inFlight(this);
  }

  /** The run ended: cut the session now, unless a request of its is in flight (its end cuts it). */
  runEnded(): void {
    const run = this.#run;
    if (!run.ended.aborted) return;
    if (!this.#sender.inFlight(this)) {
      this.#pending = this.#sleeps === 0 && run.shared.stopping;
      this.settle(CUT, false);
    }
    // A think time ends at once when the run stops (its entry in the queue is left to go stale); k6's
    // rejects with the cut, as the iteration k6 interrupts runs no further.
    if (this.#wakeUp(this.#held)) SLEEPS.forget();
  }

  /** The load's span ended: a think time ends (Locust's users stop at their wait), but k6's. */
  runStopping(): void {
    if (!this.#held && this.#wakeUp()) SLEEPS.forget();
  }

  #cutNow(): Promise<never> {
    this.settle(CUT, false);
    return NEVER;
  }

  /** The function's result ends the session unless it was cut first (a thenable awaited as `await` would). */
  endWithBody(body: unknown): void {
    const { value, error } = this.#sender;
    if (body instanceof Promise) return void body.then(value, error);
    if ((typeof body !== "object" || body === null) && typeof body !== "function") {
      return this.settle(body, false);
    }
    Promise.resolve(body).then(value, error);
  }

  settle(outcome: unknown, failed: boolean): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#sender.concluded(this, outcome, failed);
  }

  sleep(ms: number): Promise<void> {
    // A NaN one would be due at NaN and never wake.
    if (!(typeof ms === "number" && ms >= 0 && ms < Infinity)) throw new TypeError(badSleep(ms));
    const ended = this.#run.ended;
    if (ended.aborted) return this.#cutNow();
    this.#sleeps++;
    // Sleeps at once (not awaited) are rare: each but the first listens to the run's end itself.
    if (this.#wake !== null) return sleepUnlessAborted(ms, ended).then(() => void this.#sleeps--);
    return new Promise<void>((resolve) => {
      this.#wake = resolve;
      SLEEPS.add(this, ++this.#sleepNo, performance.now() + Math.max(0, ms));
    });
  }

  wake(sleep: number): boolean {
    return sleep === this.#sleepNo && this.#wakeUp();
  }

  #wakeUp(cut = false): boolean {
    const wake = this.#wake;
    if (wake === null) return false;
    this.#wake = null;
    this.#sleeps--;
    wake(cut ? Promise.reject(CUT) : undefined);
    return true;
  }

  get data(): Readonly<Record<string, string>> {
    return this.#data ??= {};
  }

  get vu(): number {
    return this.#sender.vu;
  }

  get state(): Record<string, unknown> {
    return this.#sender.state;
  }

  get target(): string {
    return this.#sender.sessions.requests.url.href;
  }

  route(url: string, named = false): string {
    return this.#sender.sessions.origins.routed(url, named);
  }

  get ended(): AbortSignal {
    return this.#run.ended;
  }

  get stopping(): AbortSignal {
    return this.#run.stopping ?? this.#run.ended;
  }

  get setup(): unknown {
    return this.#sender.sessions.script.setupData;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#sender.sessions.script.env;
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

  /** A request after the run ended is cut; one on an `s` kept past its session refused; else null. */
  #refusal(what: string): Promise<never> | null {
    if (this.ended.aborted) return this.#cutNow();
    return this.#sender.live(this) ? null : overRefusal(what) as Promise<never>;
  }

  /** `then` (a runtime's, never a script's): what resolves the promise instead of the response. */
  request(method: string, target: string, options = NO_OPTIONS, then?: ResponseThen): Promise<Response> {
    return this.#refusal(method) ?? this.#sender.request(method, target, options, then);
  }

  batch<T>(send: () => Promise<T>, limits: BatchLimits = {}): Promise<T> {
    return this.#refusal("batch") ?? this.#sender.batch(send, limits);
  }

  /** A runtime's (never a script's): the requests sent beside this session's own end now, uncounted. */
  cutSides(): void {
    this.#sender.cutSides();
  }

  get grpc(): SessionGrpc {
    return {
      invoke: (method, message, params) =>
        this.invokeGrpc(this.#sender.sessions.module.grpc, method, message, params),
    };
  }

  invokeGrpc(
    schema: ScriptGrpcSchema | null,
    method: string,
    message: unknown,
    params?: GrpcParams,
  ): Promise<GrpcResponse> {
    return this.#refusal("grpc.invoke") ?? this.#sender.invokeGrpc(schema, method, message, params);
  }

  check(ok: boolean, name: string): boolean {
    return this.#sender.check(ok, name);
  }

  tally(name: string, n: number): void {
    this.#sender.tally(name, n);
  }

  get cookies(): SessionCookies {
    return this.#sender.cookies;
  }

  /** The session's clock (`performance.now()`, read cheaper), by a key a runtime needs no import for. */
  [Symbol.for("loadlab.nowMs")](): number {
    return this.#sender.nowMs();
  }

  /** Counts an error of what the session opened beside the engine (k6/ws's sockets) in its run. */
  [COUNT_ERROR](kind: ScriptWsErrorKind, message: string): void {
    this.#sender.run.shared.recorder.recordError(performance.now(), kind, message);
  }
}

// The engine calls these methods on every session: frozen, a script's assignment to one throws at its line.
Object.freeze(ScriptSession.prototype);

function badSleep(ms: unknown): string {
  const shown = typeof ms === "number"
    ? String(ms)
    : typeof ms === "string"
    ? JSON.stringify(ms.slice(0, 40))
    : typeof ms;
  return `s.sleep(${shown}): a think time is a finite number of milliseconds, 0 or more`;
}
