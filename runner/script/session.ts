/**
 * @module
 * The types a session script is written against (`loadlab init --script` copies this file beside a starter
 * script as `loadlab_session.ts`). A script's default export is called once per session; requests go to the
 * run's target on loadlab's own connections, not through `fetch`. Types only, so a script importing it runs
 * anywhere.
 *
 * @example
 * import type { Session } from "./loadlab_session.ts";
 * export default async (s: Session) => {
 *   const r = await s.post("/login", { json: { user: s.data.user, password: "secret" }, name: "login" });
 *   s.check(r.status === 200, "login 200");
 *   const token = r.json<{ token: string }>().token;
 *   await s.get("/me", { headers: { authorization: `Bearer ${token}` }, name: "me" });
 * };
 */

/** What a request may say besides its method and path. */
export interface RequestOptions {
  /** Header fields (a Host header replaces the target's). */
  headers?: Record<string, string>;
  /** The body as text or bytes (sets no Content-Type). */
  body?: string | Uint8Array;
  /** A value sent as JSON (sets `content-type: application/json` unless given). */
  json?: unknown;
  /** What results name this request (per-endpoint numbers); default `METHOD path` without the query. */
  name?: string;
  /** User tags of this request: its endpoint carries them, which thresholds select by. */
  tags?: Readonly<Record<string, string>>;
  /** This request's response timeout in ms (default: the load's `timeout`). */
  timeoutMs?: number;
  /** false: the jar neither sends its cookies with this request nor keeps its response's. */
  cookies?: boolean;
  /** Inclusive status ranges its response is not failed by (default: the run's); its own endpoint. */
  expectedStatuses?: ReadonlyArray<readonly [number, number]>;
  /** The origin `target` is sent to as written (k6's Go-parsed request-target: a raw space, dot segments). */
  origin?: string;
}

/** A response; its body was received whole and is decoded only when asked. */
export interface Response {
  /** The status code; 0 when the request failed (no response: its error is counted by kind). */
  readonly status: number;
  /** Why the request failed (status 0): its error kind as results count it, and message. */
  readonly failure?: Readonly<{ kind: string; message: string }>;
  /** The TLS version and suite its connection negotiated (OpenSSL's names), when known. */
  readonly tls?: Readonly<{ version: string | null; cipher: string | null }>;
  /** When the request opened its connection (HTTP/1.1): its TCP connect and TLS handshake times in ms. */
  readonly dial?: Readonly<{ connectingMs: number; tlsHandshakingMs: number }>;
  /** HTTP/1.1: the wait for a connection, the write, the wait for the first byte and the read, in ms. */
  readonly blockedMs?: number;
  readonly sendingMs?: number;
  readonly waitingMs?: number;
  readonly receivingMs?: number;
  /** The response's header fields (names case-insensitive). */
  readonly headers: ResponseHeaders;
  /** The body as text (UTF-8). */
  text(): string;
  /** The body parsed as JSON; throws (ending the session as a `script` error) when it is not JSON. */
  json<T = any>(): T;
  bytes(): Uint8Array;
}

export interface ResponseHeaders {
  /** Every value of `name` joined with ", ", or null when absent. */
  get(name: string): string | null;
  has(name: string): boolean;
  /** Every value of `name`, in order (each `set-cookie` on its own). */
  getAll(name: string): string[];
}

/** The session's cookie jar (on unless the load says `cookies: false`). */
export interface SessionCookies {
  /** The value of cookie `name` the target's root path would be sent, or undefined. */
  get(name: string): string | undefined;
  /** Sets cookie `name` for the target's host, path `/`. */
  set(name: string, value: string): void;
  /** The `Cookie` value a request to `path` (and query) of the target carries, or null when none. */
  header(path: string): string | null;
  /** Forgets every cookie. */
  clear(): void;
}

/** What a gRPC call may say besides its method and message. */
export interface GrpcParams {
  /** Metadata (names lower case; a `-bin` name's value is sent base64-encoded). */
  metadata?: Record<string, string>;
  /** This call's deadline in ms (its `grpc-timeout`; default: the load's `timeout`). */
  timeoutMs?: number;
  /** What results name this call; default its method, `pkg.Service/Method`. */
  name?: string;
}

/** A gRPC call's outcome, in the shape of k6's `client.invoke` response. */
export interface GrpcResponse {
  /** The gRPC code: 0 OK, else the code it failed with (4 when no answer came in time, 14 unreachable). */
  readonly status: number;
  /** The reply in proto3 JSON form; a server stream's replies as an array; null when none came. */
  readonly message: any;
  /** The answer's head fields (its metadata), name -> values. */
  readonly headers: Readonly<Record<string, string[]>>;
  /** `grpc-status` and `grpc-message` of a call that failed; empty when it succeeded. */
  readonly trailers: Readonly<Record<string, string[]>>;
  /** Null when OK, else the code and the server's `grpc-message` (or why no answer came). */
  readonly error: { code: number; message: string } | null;
}

/** gRPC calls on the session's connection, with the schema the script declares as `export const grpc`. */
export interface SessionGrpc {
  /** One call of `method` (`pkg.Service/Method`) with `message` (proto3 JSON), named by the method. */
  invoke(method: string, message: unknown, params?: GrpcParams): Promise<GrpcResponse>;
}

/** How many requests of a batch (`s.batch`) are in flight at once (k6's `batch` and `batchPerHost`). */
export interface BatchLimits {
  /** At most this many at once (default 20). */
  parallel?: number;
  /** At most this many at once to one origin (default 6). */
  perHost?: number;
}

/** What a session script's default export receives, once per session. */
export interface Session<SetupData = unknown> {
  get(path: string, options?: RequestOptions): Promise<Response>;
  post(path: string, options?: RequestOptions): Promise<Response>;
  put(path: string, options?: RequestOptions): Promise<Response>;
  patch(path: string, options?: RequestOptions): Promise<Response>;
  delete(path: string, options?: RequestOptions): Promise<Response>;
  /** Any method; `path` is a path or a URL (another origin goes on a connection dialled to it). */
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /**
   * Every request `send` makes before its promise settles goes in parallel within `limits`, the rest queued:
   * `await s.batch(() => Promise.all([s.get("/a"), s.get("/b")]))`.
   */
  batch<T>(send: () => Promise<T>, limits?: BatchLimits): Promise<T>;
  /** Counts a check under `name` (passed when `ok`), as a flow's checks are; never ends the session. */
  check(ok: boolean, name: string): boolean;
  /** Waits `ms` (think time); ends at once when the run stops. */
  sleep(ms: number): Promise<void>;
  /** This session's row of the load's data source (column -> value); empty without one. */
  readonly data: Readonly<Record<string, string>>;
  /** The virtual user: this worker's connection slot in closed loads, a counter in open ones (from 1). */
  readonly vu: number;
  /** How many sessions this virtual user ran before this one (from 0). */
  readonly iteration: number;
  /** This virtual user's own object, the same in each of its sessions (what Locust keeps on `self`). */
  readonly state: Record<string, unknown>;
  /** What `setup()` returned (undefined without a setup). */
  readonly setup: SetupData;
  /** The environment variables of the loadlab process (as k6's `__ENV`). */
  readonly env: Readonly<Record<string, string>>;
  readonly cookies: SessionCookies;
  /** The run's target URL (`http://127.0.0.1:8080/`): where a client of the script's own connects. */
  readonly target: string;
  /**
   * Where a client of the script's own (a WebSocket) connects for `url`: the target, or where routes say;
   * with `named`, an origin that `options.hosts` only dials elsewhere keeps its host (its cookies' host).
   */
  route(url: string, named?: boolean): string;
  /** Aborts when the run ends: a client of the script's own (a WebSocket) closes then. */
  readonly ended: AbortSignal;
  /** Aborts as the load's duration ends (or on a stop), before its graceful stop: a session may wind down. */
  readonly stopping: AbortSignal;
  /** gRPC calls (the run's target must speak HTTP/2: a load with `protocol: h2c`, or h2 on https:). */
  readonly grpc: SessionGrpc;
}

/** A script's `options`: what an experiment file would say, used when the script runs on its own. */
export type SessionOptions = Record<string, unknown>;
