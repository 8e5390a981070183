/**
 * @module
 * The requests of an HTTP/2 run, encoded once before any load: each becomes its HEADERS frames and body,
 * copied into the output per send with only the stream id patched.
 */
import type { RequestSpec } from "../../request_spec.ts";
import { encodeField, encodeRequestHeaders } from "../../../http2/hpack/encoder.ts";
import { FRAME_HEADER_BYTES, MAX_STREAM_ID, writeUint32 } from "../../../http2/frames.ts";
import { resolvePath } from "../request.ts";
import {
  addsLength,
  bodyWithLength,
  isTemplated,
  requestFieldsOf,
  streamHeadersOf,
} from "../request_fields.ts";
import { buildH2Template, frameHeaders, type H2Template, headerFrameCount } from "./template.ts";
import { grpcBodyTemplate } from "../protobuf_template.ts";

export interface H2Request {
  readonly frames: Uint8Array;
  readonly frameStarts: Uint32Array;
  readonly body: Uint8Array | null;
  /** Placeholders to fill per request (then `frames` and `body` are empty), or null. */
  readonly template: H2Template | null;
  /** A HEAD request: its answer may name a content-length and carry no DATA (RFC 9110 9.3.2). */
  readonly head: boolean;
  /** Index of the endpoint its responses are recorded under (runner/endpoint_table.ts); 0 when absent. */
  endpoint?: number;
  /** A gRPC call of a unary method (`RequestSpec.grpcUnary`): its answer is one message. */
  readonly oneMessage?: boolean;
}

/**
 * Encodes one request spec for `url`. With `names` a request with placeholders becomes a template;
 * `template`: always one (a cookie may join it); `literal`: never, `{{` sent as written (a script's).
 */
export function encodeH2Request(
  url: URL,
  spec: RequestSpec,
  names: readonly string[] = [],
  template = false,
  literal = false,
): H2Request {
  const path = resolvePath(url, spec.path);
  const fields = requestFieldsOf(url.host, spec);
  const authority = fields.authority;
  const headers = streamHeadersOf(spec, fields);
  const scheme = url.protocol === "https:" ? "https" : "http";
  if (!literal && (template || spec.grpcMessage !== undefined || isTemplated({ ...spec, path }))) {
    // Checks every field as written (a placeholder's text is a valid value); the values come per request.
    encodeRequestHeaders(spec.method, scheme, authority, path, headers);
    const all: Array<[string, string]> = [
      [":method", spec.method],
      [":scheme", scheme],
      [":authority", authority],
      [":path", path],
      ...headers,
    ];
    const autoLength = addsLength(spec, fields);
    const indexOf = (n: string) => names.indexOf(n);
    const template = buildH2Template(all, spec.body, autoLength, indexOf, encodeField);
    // A gRPC message with placeholders is filled and encoded per call (protobuf_template.ts).
    if (spec.grpcMessage !== undefined) template.grpc = grpcBodyTemplate(spec.grpcMessage, indexOf);
    template.oneMessage = spec.grpcUnary === true;
    return {
      frames: new Uint8Array(0),
      frameStarts: new Uint32Array(0),
      body: null,
      template,
      head: fields.isHead,
    };
  }
  const body = bodyWithLength(spec, fields, headers);
  const block = encodeRequestHeaders(spec.method, scheme, authority, path, headers);
  const frameStarts = new Uint32Array(headerFrameCount(block.length));
  const frames = new Uint8Array(block.length + frameStarts.length * FRAME_HEADER_BYTES);
  frames.set(block, FRAME_HEADER_BYTES);
  frameHeaders(frames, block.length, body === null, frameStarts);
  const sent = body === null ? null : body.slice();
  return {
    frames,
    frameStarts,
    body: sent,
    template: null,
    head: fields.isHead,
    oneMessage: spec.grpcUnary === true,
  };
}

/** Copies `request`'s HEADERS frames into `out` at `at` with `streamId` patched in; returns the end. */
export function writeHeadersFrames(
  out: Uint8Array,
  at: number,
  request: H2Request,
  streamId: number,
): number {
  out.set(request.frames, at);
  const starts = request.frameStarts;
  for (let k = 0; k < starts.length; k++) writeUint32(out, at + starts[k] + 5, streamId & MAX_STREAM_ID);
  return at + request.frames.length;
}

export function encodeH2Mix(
  url: URL,
  specs: readonly RequestSpec[],
  names: readonly string[] = [],
  endpoints: readonly number[] = [],
): H2Request[] {
  return specs.map((spec, k) => ({ ...encodeH2Request(url, spec, names), endpoint: endpoints[k] ?? 0 }));
}
