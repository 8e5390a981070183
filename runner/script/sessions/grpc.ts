/**
 * @module
 * gRPC calls from a session script, in k6's `client.invoke` shape, sent on the session's HTTP/2 stream slot
 * like `s.post`; every code but OK counts as its own error kind (`grpc UNAVAILABLE`), as `attack grpc://`'s.
 */
import { gunzipSync } from "node:zlib";
import type { ErrorKind } from "../../../results/mod.ts";
import type { GrpcMethod } from "../../http/grpc/schema.ts";
import type { ScriptGrpcSchema } from "./grpc_schema.ts";
import { grpcRequestSpec, RESERVED_METADATA } from "../../http/grpc/call.ts";
import { GrpcAnswer } from "../../http/grpc/answer.ts";
import { encodeH2Request, type H2Request } from "../../http/h2/request.ts";
import type { RequestSpec } from "../../request_spec.ts";
import { H2Slot } from "../../http/h2/slot.ts";
import { KEEP_ALL } from "../../load/flow_plan.ts";
import { SCRIPT_KEPT_BYTES, ScriptRequestError } from "./send.ts";
import { DEFAULT_KEPT_BYTES } from "../../http/kept_bytes.ts";
import { MessageReader } from "../../../grpc/framing.ts";
import {
  GRPC_CODE_NAMES,
  GRPC_DEADLINE_EXCEEDED,
  GRPC_INTERNAL,
  GRPC_OK,
  GRPC_RESOURCE_EXHAUSTED,
  GRPC_UNAVAILABLE,
} from "../../../grpc/status.ts";
import type { GrpcParams, GrpcResponse } from "../session.ts";
import type { ScriptNames } from "./names.ts";

const NO_VALUES: Uint8Array[] = [];
const NO_REPLIES: Uint8Array[] = [];

interface CallPlace {
  readonly grpcRequests: ScriptGrpcRequests;
  readonly grpcAnswers: WeakMap<object, ScriptGrpcAnswer>;
  /** Told the metadata each call sends: a secret-named entry's value is a secret from then on. */
  readonly names: Pick<ScriptNames, "sent">;
}

/** Distinct call heads kept encoded; past it the cache starts over (a script varying its metadata). */
const MAX_CACHED_HEADS = 1024;

/** A worker's gRPC calls as HTTP/2 requests, HEADERS frames encoded once per path, fields and body length. */
export class ScriptGrpcRequests {
  readonly #heads = new Map<string, H2Request>();

  constructor(readonly url: URL) {}

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
    const { frames, frameStarts } = head;
    return { frames, frameStarts, body, template: null, head: false, oneMessage: spec.grpcUnary === true };
  }
}

export class ScriptGrpcCall {
  readonly request: H2Request;
  readonly name: string;
  readonly path: string;
  readonly timeoutMs: number | undefined;
  readonly #method: GrpcMethod;
  readonly #schema: ScriptGrpcSchema;
  readonly #slot: H2Slot;
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
    if (!(conn instanceof H2Slot)) {
      throw new ScriptRequestError(
        "a gRPC call needs an HTTP/2 stream: give the load protocol: h2c (h2 on https:)",
      );
    }
    this.#schema = schema;
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
    answer.call(method);
    this.#answer = answer;
    const metadata = metadataOf(params);
    place.names.sent(metadata);
    const spec = grpcRequestSpec(
      {
        method: method.path,
        message: schema.messages(method, call.message),
        metadata,
        unary: !method.serverStreaming,
      },
      params.timeoutMs ?? conn.shared.timeoutMs,
    );
    this.request = place.grpcRequests.request(spec);
  }

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

  response(got: number): GrpcResponse {
    const slot = this.#slot, answer = this.#answer;
    const status = codeOf(got > 0, answer.kind, slot.timedOut);
    const kept = slot.keptResponse().snapshot();
    const headers: Record<string, string[]> = {};
    for (let k = 0; k < kept.fields.length; k += 2) (headers[kept.fields[k]] ??= []).push(kept.fields[k + 1]);
    // A failed unary call has no message (k6's null); a failed stream keeps what came before the failure
    // (k6's Stream hands each to "data" first), except one cut at its cap: thousands, and only a part.
    const decoded = status === GRPC_OK || (this.#method.serverStreaming && answer.kind !== "grpc-too-big");
    const message = decoded ? this.#schema.replyMessage(this.#method, repliesOf(kept.body)) : null;
    if (status === GRPC_OK) return { status, message, headers, trailers: {}, error: null };
    const why = answer.kind !== null && answer.message !== "" ? answer.message : GRPC_CODE_NAMES[status];
    const trailers = { "grpc-status": [String(status)], "grpc-message": [why] };
    return { status, message, headers, trailers, error: { code: status, message: why } };
  }
}

function metadataOf(params: GrpcParams): [string, string][] {
  const pairs = Object.entries(params.metadata ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
  const reserved = pairs.find(([k]) => RESERVED_METADATA.has(k.toLowerCase()));
  if (reserved !== undefined) {
    throw new ScriptRequestError(`metadata ${reserved[0]}: set by gRPC itself, not by a call`);
  }
  return pairs;
}

/** A slot's gRPC judge that keeps its last call's error kind, and caps a server stream's replies. */
export class ScriptGrpcAnswer extends GrpcAnswer {
  kind: ErrorKind | null = null;
  #method: GrpcMethod | null = null;
  #receivedBytes = 0;

  constructor(maxReceiveBytes: number) {
    super({ maxReceiveBytes });
  }

  call(method: GrpcMethod): void {
    this.kind = null;
    this.#method = method;
  }
  override start(oneMessage: boolean): void {
    this.kind = null;
    this.#receivedBytes = 0;
    super.start(oneMessage);
  }
  override head(status: number, endStream: boolean): ErrorKind | null {
    return this.kind = super.head(status, endStream);
  }
  override data(buf: Uint8Array, from: number, to: number): ErrorKind | null {
    const method = this.#method!;
    this.#receivedBytes += to - from;
    if (method.serverStreaming && this.#receivedBytes > DEFAULT_KEPT_BYTES) {
      this.message = `a server stream of ${method.path} passed its ${DEFAULT_KEPT_BYTES / 2 ** 20} MiB cap ` +
        "(what a call keeps of its replies, as a flow's step does)";
      return this.kind = "grpc-too-big";
    }
    return this.kind = super.data(buf, from, to);
  }
  override end(trailers: boolean): ErrorKind | null {
    return this.kind = super.end(trailers);
  }
}

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
