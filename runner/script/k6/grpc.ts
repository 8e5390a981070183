/**
 * @module
 * k6's `k6/net/grpc`: a `Client` calls on the session's HTTP/2 connection (`invokeGrpc`), in setup() and
 * teardown() on its own; a `Stream` sends its messages as one call once the client side ends.
 */
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import protobuf from "protobufjs";
import { current, releaseHold } from "./runtime.ts";
import { holdHook } from "../module.ts";
import { folderOf, inInit } from "./init_files.ts";
import { durationMs, refuseUnknown } from "./http.ts";
import { loadProtoFile, loadProtoset } from "../../http/grpc/schema.ts";
import { reflectSchema } from "../../http/grpc/reflection.ts";
import { ScriptGrpcSchema } from "../sessions/grpc_schema.ts";
import type { ScriptSession } from "../sessions/session.ts";
import type { GrpcResponse } from "../session.ts";
import { OneOffChannel } from "../../http/one_off_grpc.ts";
import { hookRoute } from "../worker_scope.ts";
import { GRPC_CODE_NAMES, GRPC_OK } from "../../../grpc/status.ts";
import { Counter } from "./metrics.ts";

/** k6's stream metrics: streams started, messages written, replies read. */
const streams = new Counter("grpc_streams"), sent = new Counter("grpc_streams_msgs_sent");
const received = new Counter("grpc_streams_msgs_received");

/** k6's call params (those loadlab honours; another key is refused). */
interface CallParams {
  metadata?: Record<string, string>;
  timeout?: string | number;
  tags?: Record<string, string>;
}

const PARAMS = new Set(["metadata", "timeout", "tags"]);
/** k6's `connect` params: `plaintext` (h2c), `reflect` (the schema read from the server) and `timeout`. */
type ConnectParams = { plaintext?: boolean; reflect?: boolean; timeout?: string | number };
/** k6's deadline of a call without `timeout` (2 minutes), not the load's: a k6 script was written for it. */
const K6_TIMEOUT_MS = 120_000;

const HEALTH = new ScriptGrpcSchema(
  protobuf.parse(
    `syntax = "proto3"; package grpc.health.v1;
  message HealthCheckRequest { string service = 1; }
  message HealthCheckResponse {
    enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
    ServingStatus status = 1;
  }
  service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }`,
    { keepCase: true },
  ).root,
);
const HEALTH_STATUS = ["UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN"];

let reflected: Promise<ScriptGrpcSchema> | null = null;

/** The running session; undefined in setup() or teardown(); a throw in init code, as k6 refuses it. */
function session(what: string): ScriptSession | undefined {
  const s = current()?.s;
  if (s === undefined && inInit()) throw new Error(`${what} in the init context is not supported (as in k6)`);
  return s as ScriptSession | undefined;
}

const NOT_CONNECTED = "no gRPC connection, you must call connect first";
/** k6's deadline of `connect` without `timeout` (60 s). */
const K6_CONNECT_TIMEOUT_MS = 60_000;

/** The servers a VU's `connect` reached once: k6 dials at each, here the first connect per server only. */
const reachable = new Set<string>();

/** Dials `target` (host:port) as k6's `connect` does, throwing k6's error where nothing listens. */
async function reach(target: URL, timeoutMs: number): Promise<void> {
  if (reachable.has(target.host)) return;
  const port = Number(target.port) || (target.protocol === "https:" ? 443 : 80);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const conn = Deno.connect({ hostname: target.hostname.replace(/^\[|\]$/g, ""), port });
  try {
    const late = new Promise<never>((_, no) =>
      timer = setTimeout(() => no(new Error("i/o timeout")), timeoutMs)
    );
    (await Promise.race([conn, late])).close();
    reachable.add(target.host);
  } catch (err) {
    conn.then((c) => c.close(), () => {});
    const why = err instanceof Deno.errors.ConnectionRefused ? "connection refused" : (err as Error).message;
    throw new Error(
      `connection error: desc = "transport: error while dialing: dial tcp ${target.host}: connect: ${why}"`,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The running iteration's k6 VU id (`__VU`): a VU stays connected across its iterations. */
const vuId = (): number => current()?.vu.id ?? 0;

export class Client {
  #schema: ScriptGrpcSchema | null = null;
  /** The VUs connected (by `__VU`): one client of the script's init code serves every VU here. */
  readonly #connected = new Set<number>();
  /** Its connection in setup() or teardown(): an HTTP/2 session of its own to the server. */
  #hook: OneOffChannel | null = null;

  /** Reads .proto `files` and imports from the first of `importPaths` with them, else the script's folder. */
  load(importPaths: string[] | null, ...files: string[]): void {
    const at = (p: string) => isAbsolute(p) ? p : join(folderOf(), p);
    const paths = (importPaths ?? []).map(at);
    const find = (f: string) => paths.map((p) => join(p, f)).find((p) => existsSync(p)) ?? at(f);
    const roots = files.map((f) => loadProtoFile(find(f), paths));
    const root = roots[0] ?? new protobuf.Root();
    for (const more of roots.slice(1)) root.addJSON(more.toJSON().nested ?? {});
    this.#schema = new ScriptGrpcSchema(root);
  }

  /** Reads a protoset (a compiled FileDescriptorSet), relative to the script's folder. */
  loadProtoset(file: string): void {
    this.#schema = new ScriptGrpcSchema(loadProtoset(isAbsolute(file) ? file : join(folderOf(), file)));
  }

  /** Names the server `host:port`, the run's target or sent there; `reflect` reads its schema from it. */
  async connect(addr: string, params: ConnectParams = {}) {
    const s = session("client.connect()");
    const timeoutMs = params.timeout === undefined ? K6_CONNECT_TIMEOUT_MS : durationMs(params.timeout);
    if (s === undefined) return this.#connectHook(addr, params, timeoutMs);
    // The target where it is dialled: k6's `hosts` keep its name and send it to their address.
    const target = new URL(s.target).host, dialled = new URL(s.route(s.target));
    const url = URL.parse(`${params.plaintext === true ? "http" : "https"}://${addr}/`);
    // Not an address: refused as another server.
    if (url === null || new URL(s.route(url.href)).host !== dialled.host) {
      throw new Error(
        `${String(addr).slice(0, 100)}: not the run's gRPC server (${target}): a k6 script's calls go to ` +
          "the run's target; run it without --target app (its address is the target), or send this " +
          "address there with --target app=URL when the script spells it",
      );
    }
    await reach(dialled, timeoutMs);
    if (params.reflect === true) {
      reflected ??= reflectSchema(dialled.origin, timeoutMs).then((r) => new ScriptGrpcSchema(r));
      this.#schema = await reflected;
    }
    this.#connected.add(vuId());
    return true;
  }

  /** `connect` in setup() or teardown(): the address (or where the run sends it) dialed at once. */
  async #connectHook(addr: string, params: ConnectParams, timeoutMs: number) {
    this.close();
    const origin = new URL(hookRoute(`${params.plaintext === true ? "http" : "https"}://${addr}/`)).origin;
    // k6's `connect` dials at once: an unreachable server throws here.
    const hook = new OneOffChannel(origin, timeoutMs);
    await hook.open().catch((err) => (hook.close(), Promise.reject(err)));
    this.#hook = hook;
    if (params.reflect === true) this.#schema = new ScriptGrpcSchema(await reflectSchema(origin, timeoutMs));
    return true;
  }

  /** One unary call (or a client stream's messages as an array), k6's response shape. */
  invoke(method: string, message: unknown, params: CallParams = {}): Promise<GrpcResponse> {
    const s = session("client.invoke()");
    refuseUnknown(params ?? {}, PARAMS, "grpc params");
    if (s === undefined) return this.#invokeHook(this.#schema, method, message, params);
    if (!this.#connected.has(vuId())) throw new Error(NOT_CONNECTED);
    return s.invokeGrpc(this.#schema, method, message, {
      metadata: params?.metadata,
      timeoutMs: params?.timeout === undefined ? K6_TIMEOUT_MS : durationMs(params.timeout),
      name: params?.tags?.name,
    });
  }

  /** A call in setup() or teardown(), on the client's own connection, unmeasured. */
  async #invokeHook(schema: ScriptGrpcSchema | null, method: string, message: unknown, params: CallParams) {
    const hook = this.#hook;
    if (hook === null) throw new Error(NOT_CONNECTED);
    if (schema === null) {
      throw new Error(`${method}: no schema: load() its .proto first, or connect with reflect`);
    }
    const m = schema.method(method);
    const sent = schema.messages(m, message);
    const timeoutMs = params.timeout === undefined ? K6_TIMEOUT_MS : durationMs(params.timeout);
    const metadata = Object.fromEntries(
      Object.entries(params.metadata ?? {}).map(([k, v]) => [k, String(v)]),
    );
    const frames = Array.isArray(sent) ? sent : [sent];
    const answer = await hook.call("/" + m.path, frames, timeoutMs, schema.maxReceiveBytes, metadata);
    const status = answer.status < 0 ? 2 : answer.status;
    const headers: Record<string, string[]> = {};
    for (const [k, v] of answer.fields) if (!k.startsWith(":")) (headers[k] ??= []).push(v);
    const reply = status === GRPC_OK || m.serverStreaming ? schema.replyMessage(m, answer.replies) : null;
    if (status === GRPC_OK) return { status, message: reply, headers, trailers: {}, error: null };
    const why = answer.problem || GRPC_CODE_NAMES[status];
    const trailers = { "grpc-status": [String(status)], "grpc-message": [why] };
    return { status, message: reply, headers, trailers, error: { code: status, message: why } };
  }

  /** grpc.health.v1's Check; the response's `status` is the serving status (`HealthCheckServing`). */
  async healthCheck(service = ""): Promise<GrpcResponse> {
    const s = session("client.healthCheck()");
    if (s !== undefined && !this.#connected.has(vuId())) throw new Error(NOT_CONNECTED);
    const r = s === undefined
      ? await this.#invokeHook(HEALTH, "grpc.health.v1.Health/Check", { service }, {})
      : await s.invokeGrpc(HEALTH, "grpc.health.v1.Health/Check", { service });
    if (r.status !== 0) return r;
    return { ...r, status: HEALTH_STATUS.indexOf(r.message?.status ?? "UNKNOWN") };
  }

  /** The VU's client is closed (a call needs `connect` again); the connection itself is the session's. */
  close(): void {
    if (current() !== undefined) this.#connected.delete(vuId());
    else this.#hook?.close(), this.#hook = null;
  }

  get schema(): ScriptGrpcSchema | null {
    return this.#schema;
  }

  /** Whether the running VU (or setup or teardown) connected this client and has not closed it. */
  get connected(): boolean {
    return current() === undefined ? this.#hook !== null : this.#connected.has(vuId());
  }
}

Object.defineProperty(Client.prototype, "asyncInvoke", { value: Client.prototype.invoke });

type Listener = (value: unknown) => void;

/** k6's `Stream`: its messages sent as one call when the client side ends, its replies then handed over. */
export class Stream {
  readonly #client: Client;
  readonly #method: string;
  readonly #params: CallParams;
  readonly #messages: unknown[] = [];
  readonly #listeners: Record<string, Listener[]> = {};
  #sent = false;

  constructor(client: Client, method: string, params: CallParams | null = null) {
    if (!client.connected) throw new Error(`invalid GRPC Stream's client: ${NOT_CONNECTED}`);
    this.#client = client;
    this.#method = method;
    this.#params = params ?? {};
  }

  /** Listens to `data` (each reply), `error` (the call failed) or `end` (the server ended the stream). */
  on(event: string, listener: Listener): void {
    (this.#listeners[event] ??= []).push(listener);
  }

  /** Adds a message; a method that takes one message is called with it at once. */
  write(message: unknown): void {
    this.#messages.push(message);
    const schema = this.#client.schema;
    if (schema !== null && !schema.method(this.#method).clientStreaming) this.#send();
  }

  end(): void {
    this.#send();
  }

  #send(): void {
    if (this.#sent) return;
    this.#sent = true;
    const schema = this.#client.schema;
    const streaming = schema?.method(this.#method).clientStreaming ?? false;
    const message = streaming ? this.#messages : this.#messages[0] ?? {};
    streams.add(1), sent.add(this.#messages.length);
    // As k6's event loop, the iteration ends once the stream's listeners have run (its `pending` hold).
    const ctx = current();
    if (ctx !== undefined) ctx.pending++;
    const call = this.#client.invoke(this.#method, message, this.#params);
    const done = call.then((r) => this.#ended(r), (err) => {
      const text = err instanceof Error ? err.message : String(err);
      this.#emit("error", { code: 2, details: [], message: text });
    });
    if (ctx === undefined) holdHook(done);
    else done.then(() => releaseHold(ctx), (err) => releaseHold(ctx, err));
  }

  #ended(r: GrpcResponse): void {
    const replies = r.message === null ? [] : Array.isArray(r.message) ? r.message : [r.message];
    received.add(replies.length);
    for (const reply of replies) this.#emit("data", reply);
    if (r.status === 0) this.#emit("end", undefined);
    else this.#emit("error", { code: r.status, details: [], message: r.error?.message ?? "" });
  }

  #emit(event: string, value: unknown): void {
    for (const listener of this.#listeners[event] ?? []) listener(value);
  }
}

/** k6's status constants: gRPC's codes by k6's names, and grpc.health.v1's serving statuses. */
const CODES: Record<string, number> = Object.fromEntries([
  ...["OK", "Canceled", "Unknown", "InvalidArgument", "DeadlineExceeded", "NotFound", "AlreadyExists"],
  ...["PermissionDenied", "ResourceExhausted", "FailedPrecondition", "Aborted", "OutOfRange"],
  ...["Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated"],
].map((name, code) => [`Status${name}`, code]));
const SERVING: Record<string, number> = Object.fromEntries(
  ["Unknown", "Serving", "NotServing", "ServiceUnkown"].map((name, code) => [`HealthCheck${name}`, code]),
);
export const { StatusOK, StatusCanceled, StatusUnknown, StatusInvalidArgument } = CODES;
export const { StatusDeadlineExceeded, StatusNotFound, StatusAlreadyExists, StatusPermissionDenied } = CODES;
export const { StatusResourceExhausted, StatusFailedPrecondition, StatusAborted, StatusOutOfRange } = CODES;
export const { StatusUnimplemented, StatusInternal, StatusUnavailable, StatusDataLoss } = CODES;
export const { StatusUnauthenticated } = CODES;
export const { HealthCheckUnknown, HealthCheckServing, HealthCheckNotServing } = SERVING;
export const { HealthCheckServiceUnkown } = SERVING;

export default { Client, Stream, ...CODES, ...SERVING };
