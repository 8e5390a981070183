/**
 * @module
 * The requests of an HTTP/3 run, encoded once before any load: each mix entry becomes its HEADERS frame and
 * one DATA frame when it has a body, so a request is one write and a FIN. Placeholders are refused before.
 */
import type { RequestSpec } from "../../request_spec.ts";
import { encodeMessage } from "../../../http3/frames.ts";
import { encodeRequestFields } from "../../../http3/qpack_encoder.ts";
import { resolvePath } from "../request.ts";
import { bodyWithLength, requestFieldsOf, streamHeadersOf } from "../request_fields.ts";

export interface H3Request {
  /** HEADERS, then DATA when there is a body: what the request stream carries before its FIN. */
  readonly bytes: Uint8Array;
  /** A HEAD request: its answer may name a content-length and carry no DATA (RFC 9110 9.3.2). */
  readonly head: boolean;
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
