/**
 * @module
 * What a gRPC call's answer says in its header blocks (gRPC over HTTP/2: Response-Headers, then
 * Trailers; or Trailers-Only): the fields a client reads, gathered field by field as an HPACK decoder
 * hands them over as bytes (`GrpcFields.fieldBytes`), and the call's outcome judged from them
 * (`callOutcome`): the
 * `grpc-status` code, or a broken answer (no `grpc-status`, a garbled one, a `content-type` that is not
 * gRPC's). Shared by the engine and the tests' servers. Pure.
 */
import { GRPC_OK, GRPC_UNKNOWN, grpcCodeOfHttpStatus } from "./status.ts";

/** No `grpc-status` came. */
export const STATUS_MISSING = -1;
/** A `grpc-status` came that is not a number. */
export const STATUS_GARBLED = -2;

/** ASCII text as bytes, for comparing names and values where the decoder left them. */
function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const GRPC_STATUS = ascii("grpc-status");
const GRPC_MESSAGE = ascii("grpc-message");
const CONTENT_TYPE = ascii("content-type");
const GRPC_ENCODING = ascii("grpc-encoding");
const APPLICATION_GRPC = ascii("application/grpc");
const IDENTITY = ascii("identity");

/** `buf[at, at + want.length)` is `want`. */
function startsWith(buf: Uint8Array, at: number, len: number, want: Uint8Array): boolean {
  if (len < want.length) return false;
  for (let k = 0; k < want.length; k++) if (buf[at + k] !== want[k]) return false;
  return true;
}

function latin1(buf: Uint8Array, at: number, len: number): string {
  let s = "";
  for (let k = 0; k < len; k++) s += String.fromCharCode(buf[at + k]);
  return s;
}

/** A `grpc-status` value's code from its bytes: 1 to 3 digits (past 16: UNKNOWN), else STATUS_GARBLED. */
function statusOf(buf: Uint8Array, at: number, len: number): number {
  if (len === 0 || len > 3) return STATUS_GARBLED;
  let code = 0;
  for (let k = 0; k < len; k++) {
    const d = buf[at + k] - 48;
    if (d < 0 || d > 9) return STATUS_GARBLED;
    code = code * 10 + d;
  }
  return code > 16 ? GRPC_UNKNOWN : code;
}

/**
 * The gRPC fields of one answer's header blocks (head and trailers); `reset` per call. HOT PATH: the
 * decoder hands each field over as bytes (`fieldBytes`); the known names are compared byte by byte and
 * `grpc-status` read as digits, so an OK answer makes no string (a `grpc-message` is kept only while the
 * status is not OK, a `content-type` only when it is not gRPC's).
 */
export class GrpcFields {
  /** The `grpc-status` code, STATUS_MISSING or STATUS_GARBLED. */
  status = STATUS_MISSING;
  /** The `grpc-message` value as sent (percent-encoded), or "". */
  message = "";
  /** The head's `content-type` starts with `application/grpc` (set by the head only). */
  grpcContentType = false;
  /** The head's `content-type` when it is not gRPC's (named in the failure), else "". */
  contentType = "";
  /** The `grpc-encoding` the server compressed with, or "" (none or `identity`). */
  encoding = "";

  /** One field as bytes where they lie (names come lower case). */
  fieldBytes(
    name: Uint8Array,
    nameOff: number,
    nameLen: number,
    value: Uint8Array,
    at: number,
    len: number,
  ): void {
    if (nameLen === 11 && startsWith(name, nameOff, nameLen, GRPC_STATUS)) {
      this.status = statusOf(value, at, len);
    } else if (nameLen === 12 && startsWith(name, nameOff, nameLen, GRPC_MESSAGE)) {
      if (this.status !== GRPC_OK) this.message = latin1(value, at, len);
    } else if (nameLen === 12 && startsWith(name, nameOff, nameLen, CONTENT_TYPE)) {
      this.grpcContentType = startsWith(value, at, len, APPLICATION_GRPC);
      this.contentType = this.grpcContentType ? "" : latin1(value, at, len);
    } else if (nameLen === 13 && startsWith(name, nameOff, nameLen, GRPC_ENCODING)) {
      this.encoding = len === IDENTITY.length && startsWith(value, at, len, IDENTITY)
        ? ""
        : latin1(value, at, len);
    }
  }

  /** The same for a field as text (Latin-1), for callers that have strings. */
  onField(name: string, value: string): void {
    const n = ascii(name), v = ascii(value);
    this.fieldBytes(n, 0, n.length, v, 0, v.length);
  }

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
