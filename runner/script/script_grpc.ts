/**
 * @module
 * gRPC calls from a session script, in k6's `client.invoke` shape: `s.grpc.invoke(method, message,
 * { metadata, timeoutMs })` resolves with `{ status, message, headers, trailers, error }`. The schema is
 * declared by the script (`export const grpc = { proto, importPaths }` or `{ protoset }`, relative to
 * the script's folder), read once per isolate when the script is imported, so a schema that does not
 * load refuses the script before any load. A call is a request of the session like `s.post` (its
 * connection, one in flight, its latency, its name: the method, an endpoint of its own), encoded from
 * the message (proto3 JSON, checked against its type) at the call, sent on the session's HTTP/2 stream
 * slot with a `GrpcAnswer` judging its answer, so every code but OK counts as its own error kind
 * (`grpc UNAVAILABLE`), as `attack grpc://` counts them. The reply is decoded for the script (a server
 * stream's replies as a list). An unknown method, a message that does not fit or a reserved metadata name
 * is thrown where the script called (a `script` error at its line), nothing sent.
 */
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type protobuf from "protobufjs";
import protojson from "protobufjs/ext/protojson.js";
import type { ErrorKind } from "../../results/mod.ts";
import { findMethod, type GrpcMethod, loadProtoFile, loadProtoset } from "../http/grpc/schema.ts";
import { encodeMessage } from "../http/grpc/message.ts";
import { grpcRequestSpec, RESERVED_METADATA } from "../http/grpc/call.ts";
import { GrpcAnswer } from "../http/grpc/answer.ts";
import { encodeH2Request, type H2Request } from "../http/h2/request.ts";
import type { StreamAnswer } from "../http/stream_answer.ts";
import type { RequestSpec } from "../request_spec.ts";
import { H2Slot } from "../http/h2/slot.ts";
import { H2ArrivalConnection } from "../http/h2/arrival.ts";
import { KEEP_ALL } from "../load/flow_plan.ts";
import { SCRIPT_KEPT_BYTES, ScriptRequestError } from "./script_send.ts";
import { DEFAULT_MAX_MESSAGE_BYTES, MessageReader } from "../../grpc/framing.ts";
import {
  GRPC_CODE_NAMES,
  GRPC_DEADLINE_EXCEEDED,
  GRPC_INTERNAL,
  GRPC_OK,
  GRPC_RESOURCE_EXHAUSTED,
  GRPC_UNAVAILABLE,
} from "../../grpc/status.ts";
import type { GrpcParams, GrpcResponse } from "./session.ts";

const NO_VALUES: Uint8Array[] = [];
/** Where the reply reader's messages go between reads: none are expected there. */
const NO_REPLIES: Uint8Array[] = [];

/** What a script declares as `export const grpc`: the schema its calls use. */
export interface GrpcDeclaration {
  proto?: string;
  importPaths?: string[];
  protoset?: string;
  /** The cap of one received message, bytes (4 MiB unless set). */
  maxReceiveBytes?: number;
}

/** A schema the script's calls use, with its methods looked up once each. */
export class ScriptGrpcSchema {
  readonly #methods = new Map<string, GrpcMethod>();

  constructor(readonly root: protobuf.Root, readonly maxReceiveBytes = DEFAULT_MAX_MESSAGE_BYTES) {}

  /** The method `name` (`pkg.Service/Method`, a leading `/` allowed); throws naming what exists. */
  method(name: string): GrpcMethod {
    let found = this.#methods.get(name);
    if (found === undefined) this.#methods.set(name, found = findMethod(this.root, name));
    return found;
  }
}

/** The schema a script's `grpc` export declares, its files relative to `folder`; throws naming the field. */
export function loadGrpcDeclaration(declared: unknown, folder: string): ScriptGrpcSchema {
  const d = declared as GrpcDeclaration;
  const problem = declarationProblem(d);
  if (problem !== null) throw new TypeError(`export grpc${problem}`);
  const at = (p: string) => join(folder, p);
  const root = d.proto !== undefined
    ? loadProtoFile(at(d.proto), (d.importPaths ?? []).map(at))
    : loadProtoset(at(d.protoset!));
  return new ScriptGrpcSchema(root, d.maxReceiveBytes);
}

/** What is wrong with a declaration (`.field: why`, or `: why`), or null. */
function declarationProblem(d: GrpcDeclaration): string | null {
  if (d === null || typeof d !== "object" || Array.isArray(d)) {
    return ': must be { proto: "./x.proto", importPaths?: [...] } or { protoset: "./x.pb" }';
  }
  const known = new Set(["proto", "importPaths", "protoset", "maxReceiveBytes"]);
  const unknown = Object.keys(d).find((k) => !known.has(k));
  if (unknown !== undefined) {
    return `.${unknown}: not a field (proto, importPaths, protoset, maxReceiveBytes)`;
  }
  if ((d.proto === undefined) === (d.protoset === undefined)) {
    return ": give the schema as proto (with importPaths) or protoset, one of them";
  }
  if (d.proto !== undefined && !isText(d.proto)) return ".proto: a file path";
  if (d.protoset !== undefined && !isText(d.protoset)) return ".protoset: a file path";
  if (d.importPaths !== undefined && !(Array.isArray(d.importPaths) && d.importPaths.every(isText))) {
    return ".importPaths: a list of folders";
  }
  const cap = d.maxReceiveBytes;
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 1 && cap <= 0x7fff_ffff)) {
    return ".maxReceiveBytes: a whole number of bytes, 1 to 2^31-1";
  }
  return null;
}

const isText = (v: unknown) => typeof v === "string" && v !== "";

/** Where a call goes: the session's connection and what the worker's sessions share. */
interface CallPlace {
  readonly grpcRequests: ScriptGrpcRequests;
  readonly grpcAnswers: WeakMap<object, ScriptGrpcAnswer>;
}

/** Distinct call heads kept encoded; past it the cache starts over (a script varying its metadata). */
const MAX_CACHED_HEADS = 1024;

/**
 * A worker's gRPC calls as HTTP/2 requests for its target: the HEADERS frames of a call are encoded
 * (HPACK, each field checked) once per path, header fields and body length, and kept, since a script's
 * loop sends the same method with the same metadata call after call; each call gets them with its own
 * body. The key holds every input of the encoding, each part length-prefixed, so two calls share frames
 * only when they would encode to the same bytes.
 */
export class ScriptGrpcRequests {
  readonly #heads = new Map<string, H2Request>();

  constructor(readonly url: URL) {}

  /** `spec` (a gRPC call's: a body, no template) as a request; a bad field throws, nothing kept. */
  request(spec: RequestSpec): H2Request {
    const body = spec.body!;
    let key = `${spec.path.length}:${spec.path}${body.length}`;
    for (const [name, value] of spec.headers) key += `|${name.length}:${name}${value.length}:${value}`;
    let head = this.#heads.get(key);
    if (head === undefined) {
      head = encodeH2Request(this.url, spec, [], false, true);
      if (this.#heads.size >= MAX_CACHED_HEADS) this.#heads.clear();
      this.#heads.set(key, head);
    }
    // The body is this call's own (framed for it), sent as its DATA frames; the head's frames are only read.
    return { frames: head.frames, frameStarts: head.frameStarts, body, template: null, head: false };
  }
}

/**
 * One call of a session: made from the method, message and params (a refusal throws, nothing sent),
 * exchanged on the session's stream slot with the slot's `ScriptGrpcAnswer`, read back as a response.
 */
export class ScriptGrpcCall {
  readonly request: H2Request;
  readonly name: string;
  readonly path: string;
  readonly timeoutMs: number | undefined;
  readonly #method: GrpcMethod;
  readonly #slot: H2Slot | H2ArrivalConnection;
  readonly #answer: ScriptGrpcAnswer;

  constructor(
    schema: ScriptGrpcSchema | null,
    conn: object,
    place: CallPlace,
    call: { method: string; message: unknown; params?: GrpcParams },
  ) {
    if (schema === null) {
      throw new ScriptRequestError(
        "s.grpc.invoke() without a schema: declare it, " +
          'export const grpc = { proto: "./service.proto" } (or { protoset: "./service.pb" })',
      );
    }
    if (!(conn instanceof H2Slot || conn instanceof H2ArrivalConnection)) {
      throw new ScriptRequestError(
        "a gRPC call needs an HTTP/2 stream: give the load protocol: h2c (h2 on https:)",
      );
    }
    const method = this.#method = schema.method(call.method);
    const params = call.params ?? {};
    this.name = params.name ?? method.path;
    this.path = "/" + method.path;
    this.timeoutMs = params.timeoutMs;
    this.#slot = conn;
    let answer = place.grpcAnswers.get(conn);
    if (answer === undefined) {
      place.grpcAnswers.set(conn, answer = new ScriptGrpcAnswer(schema.maxReceiveBytes));
    }
    // A call that never opens its stream (a failed connect) must not read the slot's last call's kind.
    answer.kind = null;
    this.#answer = answer;
    const spec = grpcRequestSpec(
      { method: method.path, message: messagesOf(method, call.message), metadata: metadataOf(params) },
      params.timeoutMs ?? (conn instanceof H2Slot ? conn.shared : conn.owner.shared).timeoutMs,
    );
    this.request = place.grpcRequests.request(spec);
  }

  /** The call on its slot from `sendMs`, its answer and body kept; 1 when it succeeded, else 0. */
  exchange(sendMs: number): Promise<number> {
    return this.#slot.exchangeStep(
      sendMs,
      this.request,
      NO_VALUES,
      null,
      KEEP_ALL,
      SCRIPT_KEPT_BYTES,
      this.#answer,
    );
  }

  /** What the script's call resolves with, once it ended (`got`: what `exchange` resolved with). */
  response(got: number): GrpcResponse {
    const slot = this.#slot, answer = this.#answer;
    const status = codeOf(got > 0, answer.kind, slot.timedOut);
    const kept = slot.keptResponse().snapshot();
    const headers: Record<string, string[]> = {};
    for (let k = 0; k < kept.fields.length; k += 2) (headers[kept.fields[k]] ??= []).push(kept.fields[k + 1]);
    const replies = repliesOf(kept.body);
    const type = this.#method.responseType;
    const message = replies.length === 0
      ? null
      : this.#method.serverStreaming
      ? replies.map((r) => protojson.toJson(type, type.decode(r)))
      : protojson.toJson(type, type.decode(replies[0]));
    if (status === GRPC_OK) return { status, message, headers, trailers: {}, error: null };
    const why = answer.kind !== null && answer.message !== "" ? answer.message : GRPC_CODE_NAMES[status];
    const trailers = { "grpc-status": [String(status)], "grpc-message": [why] };
    return { status, message, headers, trailers, error: { code: status, message: why } };
  }
}

/** The call's message bytes: one, or a client stream's (an array, each at `message[k]`). */
function messagesOf(method: GrpcMethod, message: unknown): Uint8Array | Uint8Array[] {
  if (!method.clientStreaming) return encodeMessage(method.requestType, message ?? {});
  const list = Array.isArray(message) ? message : [message];
  return list.map((m, k) => encodeMessage(method.requestType, m, `message[${k}]`));
}

/** The params' metadata as pairs; a name gRPC sets itself is refused. */
function metadataOf(params: GrpcParams): [string, string][] {
  const pairs = Object.entries(params.metadata ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
  const reserved = pairs.find(([k]) => RESERVED_METADATA.has(k.toLowerCase()));
  if (reserved !== undefined) {
    throw new ScriptRequestError(`metadata ${reserved[0]}: set by gRPC itself, not by a call`);
  }
  return pairs;
}

/** A stream slot's judge of a script's call: gRPC's (`GrpcAnswer`), remembering the kind it ended with. */
export class ScriptGrpcAnswer implements StreamAnswer {
  readonly #answer: GrpcAnswer;
  /** The kind the last call failed with by gRPC's rules, or null. */
  kind: ErrorKind | null = null;

  constructor(maxReceiveBytes: number) {
    this.#answer = new GrpcAnswer({ maxReceiveBytes });
  }

  get fields() {
    return this.#answer.fields;
  }
  get message(): string {
    return this.#answer.message;
  }
  start(): void {
    this.kind = null;
    this.#answer.start();
  }
  head(status: number, endStream: boolean): ErrorKind | null {
    return this.kind = this.#answer.head(status, endStream);
  }
  data(buf: Uint8Array, from: number, to: number): ErrorKind | null {
    return this.kind = this.#answer.data(buf, from, to);
  }
  end(trailers: boolean): ErrorKind | null {
    return this.kind = this.#answer.end(trailers);
  }
}

/** The gRPC code of an ended call: OK, its error kind's code, or what a call without an answer gets. */
function codeOf(answered: boolean, kind: ErrorKind | null, timedOut: boolean): number {
  if (answered) return GRPC_OK;
  if (kind === null) return timedOut ? GRPC_DEADLINE_EXCEEDED : GRPC_UNAVAILABLE;
  if (kind === "grpc-too-big") return GRPC_RESOURCE_EXHAUSTED;
  if (kind === "grpc-protocol") return GRPC_INTERNAL;
  const code = GRPC_CODE_NAMES.indexOf(kind.slice(5) as (typeof GRPC_CODE_NAMES)[number]);
  return code > 0 ? code : GRPC_INTERNAL;
}

/** The reader of every reply body, reused (reading is synchronous): a fresh one allocates its buffers. */
const replyReader = new MessageReader(0x7fff_ffff);
let replies: Uint8Array[] = [];
replyReader.onMessage = (payload, compressed) => replies.push(compressed ? gunzipSync(payload) : payload);

/** The messages of a gRPC body (length-prefixed, a compressed one gunzipped). */
function repliesOf(body: Uint8Array): Uint8Array[] {
  const out = replies = [];
  replyReader.reset();
  replyReader.compressedAllowed = true;
  try {
    replyReader.feed(body, 0, body.length);
  } finally {
    replies = NO_REPLIES;
  }
  return out;
}
