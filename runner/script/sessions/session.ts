/**
 * @module
 * The `s` a session script's default export receives, one small object per session: its end, think times
 * and identity, every request handed to its virtual user's `SessionSender`. A session waiting in a crowd
 * holds this object, not the sender's thirty fields.
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
import { SessionEnd } from "./end.ts";
import type { ResponseThen, SessionSender } from "./sender.ts";
import { NO_OPTIONS, overRefusal } from "./send.ts";
import { COUNT_ERROR, type ScriptWsErrorKind } from "./ws_stats.ts";

export class ScriptSession extends SessionEnd implements Session {
  readonly iteration: number;
  readonly #sender: SessionSender;
  #data: Record<string, string> | null;

  constructor(
    sender: SessionSender,
    run: SessionRun,
    iteration: number,
    data: Record<string, string> | null,
    sealed: boolean,
  ) {
    super(run);
    this.#sender = sender;
    this.iteration = iteration;
    this.#data = data;
    // A script that re-parents `s` or shadows its methods fails at its line, not in the engine.
    if (sealed) Object.preventExtensions(this);
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

  protected concluded(outcome: unknown, failed: boolean): void {
    this.#sender.concluded(this, outcome, failed);
  }

  protected inFlight(): boolean {
    return this.#sender.inFlight(this);
  }

  endWithBody(body: unknown): void {
    const sender = this.#sender;
    this.endWith(body, sender.value, sender.error);
  }

  get target(): string {
    return this.#sender.sessions.options.url.href;
  }

  route(url: string, named = false): string {
    return this.#sender.sessions.origins.routed(url, named);
  }

  get ended(): AbortSignal {
    return this.#sender.run.ended;
  }

  get stopping(): AbortSignal {
    const run = this.#sender.run;
    return run.stopping ?? run.ended;
  }

  get setup(): unknown {
    return this.#sender.sessions.options.setupData;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#sender.sessions.options.env;
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
    if (this.ended.aborted) return this.cutNow();
    return this.#sender.live(this) ? null : overRefusal(what) as Promise<never>;
  }

  /** `then` (a runtime's, never a script's): what resolves the promise instead of the response. */
  request(method: string, target: string, options = NO_OPTIONS, then?: ResponseThen): Promise<Response> {
    return this.#refusal(method) ?? this.#sender.request(method, target, options, then);
  }

  batch<T>(send: () => Promise<T>, limits: BatchLimits = {}): Promise<T> {
    return this.#refusal("batch") ?? this.#sender.batch(send, limits);
  }

  get grpc(): SessionGrpc {
    return {
      invoke: (method, message, params) =>
        this.invokeGrpc(this.#sender.sessions.options.grpc ?? null, method, message, params),
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
Object.freeze(SessionEnd.prototype);
