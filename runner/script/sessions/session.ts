/**
 * @module
 * The `s` a session script's default export receives, one per session (worker_sessions.ts runs them):
 * the session's own end, think times and identity (its iteration and data row), every request handed to
 * its virtual user's `SessionSender` (sender.ts), which is made once per user and taken up
 * by each of its sessions in turn. So a session that waits in a crowd holds this small object, not the
 * sender's thirty fields: at 10,000 sessions each waits long enough for what it allocated to reach V8's old
 * generation. A request on an `s` kept past its session is refused as a `script` error at its line (the
 * connection is another session's by then), and so is one sent while the session's previous request is in
 * flight (send.ts); the outcome, cut and sleeps are end.ts's.
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
import type { SessionSender } from "./sender.ts";
import { overRefusal } from "./send.ts";
import { COUNT_ERROR, type ScriptWsErrorKind } from "./ws_stats.ts";

const NO_OPTIONS: RequestOptions = {};

/** The `s` a script's default export receives. */
export class ScriptSession extends SessionEnd implements Session {
  readonly iteration: number;
  readonly #sender: SessionSender;
  #data: Record<string, string> | null;

  constructor(
    sender: SessionSender,
    run: SessionRun,
    iteration: number,
    data: Record<string, string> | null,
  ) {
    super(run);
    this.#sender = sender;
    this.iteration = iteration;
    this.#data = data;
    // loadlab's own object: a script that re-parents it or shadows its methods (`Object.setPrototypeOf(s,
    // null)`, `s.settle = ...`) fails at its line, instead of breaking the engine that calls them.
    Object.preventExtensions(this);
  }

  /** The session's data row (column -> value), an empty object made when first read without one. */
  get data(): Readonly<Record<string, string>> {
    return this.#data ??= {};
  }

  get vu(): number {
    return this.#sender.vu;
  }

  get state(): Record<string, unknown> {
    return this.#sender.state;
  }

  /** The session's outcome came: its sender counts it and hands its connection on. */
  protected concluded(outcome: unknown, failed: boolean): void {
    this.#sender.concluded(this, outcome, failed);
  }

  protected inFlight(): boolean {
    return this.#sender.inFlight(this);
  }

  /**
   * The script function's result (a promise or a value) ends the session, watched by its user's callbacks.
   */
  endWithBody(body: unknown): void {
    const sender = this.#sender;
    this.endWith(body, sender.value, sender.error);
  }

  get target(): string {
    return this.#sender.target;
  }

  route(url: string): string {
    return this.#sender.route(url);
  }

  get ended(): AbortSignal {
    return this.#sender.run.ended;
  }

  get setup(): unknown {
    return this.#sender.setup;
  }

  get env(): Readonly<Record<string, string>> {
    return this.#sender.env;
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

  /**
   * A request or call after the run ended cuts the session and never returns; one on an `s` kept past its
   * session is refused (null: neither, the session's sender takes it).
   */
  #refusal(what: string): Promise<never> | null {
    if (this.ended.aborted) return this.cutNow();
    return this.#sender.live(this) ? null : overRefusal(what) as Promise<never>;
  }

  request(method: string, target: string, options: RequestOptions = NO_OPTIONS): Promise<Response> {
    return this.#refusal(method) ?? this.#sender.request(method, target, options);
  }

  /** Requests `send` makes before it settles go in parallel (side.ts); its value. */
  batch<T>(send: () => Promise<T>, limits: BatchLimits = {}): Promise<T> {
    return this.#refusal("batch") ?? this.#sender.batch(send, limits);
  }

  get grpc(): SessionGrpc {
    return {
      invoke: (method, message, params) => this.invokeGrpc(this.#sender.grpcSchema, method, message, params),
    };
  }

  /** A gRPC call with `schema` (the script's declared one, or a k6 client's): see `SessionSender`. */
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

  /** Counts an error of what the session opened beside the engine (k6/ws's sockets) in its run. */
  [COUNT_ERROR](kind: ScriptWsErrorKind, message: string): void {
    this.#sender.run.shared.recorder.recordError(performance.now(), kind, message);
  }
}

// The engine calls loadlab's methods on every session (endWithBody, concluded, settle...): a script that
// replaced one on the prototype all sessions share (`Object.getPrototypeOf(s).endWithBody = ...`) stalled
// every later session of its worker, the run reading 'still waiting at the end of the graceful stop'.
// Frozen, such an assignment throws at the script's line and fails that session alone.
Object.freeze(ScriptSession.prototype);
Object.freeze(SessionEnd.prototype);
