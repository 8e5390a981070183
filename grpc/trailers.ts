/**
 * @module
 * What a gRPC call's answer says in its header blocks (gRPC over HTTP/2: Response-Headers, then
 * Trailers; or Trailers-Only): the fields a client reads, gathered field by field as an HPACK decoder
 * hands them over (`GrpcFields.onField`), and the call's outcome judged from them (`callOutcome`): the
 * `grpc-status` code, or a broken answer (no `grpc-status`, a garbled one, a `content-type` that is not
 * gRPC's). Shared by the engine and the tests' servers. Pure.
 */
import { grpcCodeOfHttpStatus, grpcStatusValue } from "./status.ts";

/** No `grpc-status` came. */
export const STATUS_MISSING = -1;
/** A `grpc-status` came that is not a number. */
export const STATUS_GARBLED = -2;

/** The gRPC fields of one answer's header blocks (head and trailers); `reset` per call. */
export class GrpcFields {
  /** The `grpc-status` code, STATUS_MISSING or STATUS_GARBLED. */
  status = STATUS_MISSING;
  /** The `grpc-message` value as sent (percent-encoded), or "". */
  message = "";
  /** The head's `content-type` starts with `application/grpc` (set by the head only). */
  grpcContentType = false;
  /** The head's `content-type`, or "" (named when it is not gRPC's). */
  contentType = "";
  /** The `grpc-encoding` the server compressed with, or "" (none or `identity`). */
  encoding = "";
  /** Gathers the fields, made once (no closure per call); names come lower case. */
  readonly onField = (name: string, value: string): void => {
    if (name.charCodeAt(0) !== 103 /* g */ && name !== "content-type") return;
    if (name === "grpc-status") {
      const code = grpcStatusValue(value.trim());
      this.status = code < 0 ? STATUS_GARBLED : code;
    } else if (name === "grpc-message") this.message = value;
    else if (name === "content-type") {
      this.contentType = value;
      this.grpcContentType = value.startsWith("application/grpc");
    } else if (name === "grpc-encoding") this.encoding = value === "identity" ? "" : value;
  };

  reset(): void {
    this.status = STATUS_MISSING;
    this.message = "";
    this.grpcContentType = false;
    this.contentType = "";
    this.encoding = "";
  }
}

/**
 * A call's gRPC code from the answer's fields and HTTP status `httpStatus`, when it ended with trailers
 * (or trailers-only): its `grpc-status`; without one, a non-200 HTTP status by gRPC's mapping; else
 * STATUS_MISSING or STATUS_GARBLED (a broken answer).
 */
export function callOutcome(fields: GrpcFields, httpStatus: number): number {
  if (fields.status >= 0) return fields.status;
  if (fields.status === STATUS_MISSING && httpStatus !== 200) return grpcCodeOfHttpStatus(httpStatus);
  return fields.status;
}
