/**
 * @module
 * The requests of an HTTP/3 run, encoded once before any load: each mix entry becomes the octets of its
 * request stream, its HEADERS frame (QPACK through http3/qpack_encoder.ts, static table and literals)
 * followed by one DATA frame when it has a body, so a request is one write and a FIN. Requests with
 * `{{ placeholders }}` are refused before the run (config checks), so nothing is filled per request.
 */
import type { RequestSpec } from "../../request_spec.ts";
import { encodeMessage } from "../../../http3/frames.ts";
import { encodeRequestFields } from "../../../http3/qpack_encoder.ts";
import { resolvePath } from "../request.ts";
import { bodyWithLength, requestFieldsOf, streamHeadersOf } from "../request_fields.ts";

/** One request of the mix, the same octets on every stream. */
export interface H3Request {
  /** HEADERS, then DATA when there is a body: what the request stream carries before its FIN. */
  readonly bytes: Uint8Array;
  /** A HEAD request: its answer may name a content-length and carry no DATA (RFC 9110 9.3.2). */
  readonly head: boolean;
  /** Index of the endpoint its responses are recorded under (runner/endpoint_table.ts). */
  readonly endpoint: number;
}

/** Every request of a mix in order (index = `RequestMix.next()`); authority from the URL or a Host header. */
export function encodeH3Mix(
  url: URL,
  specs: readonly RequestSpec[],
  endpoints: readonly number[] = [],
): H3Request[] {
  return specs.map((spec, k) => {
    const path = resolvePath(url, spec.path);
    const fields = requestFieldsOf(url.host, spec);
    const headers = streamHeadersOf(spec, fields);
    const body = bodyWithLength(spec, fields, headers);
    const section = encodeRequestFields(spec.method, "https", fields.authority, path, headers);
    return { bytes: encodeMessage(section, body), head: fields.isHead, endpoint: endpoints[k] ?? 0 };
  });
}
