/**
 * @module
 * A gRPC answer's header blocks (head, trailers or trailers-only) gathered field by field from the HPACK
 * decoder's bytes, and the call's outcome: its `grpc-status` code, or a broken answer.
 */
import { GRPC_OK, grpcCodeOfHttpStatus, grpcStatusValue } from "./status.ts";

export const STATUS_MISSING = -1;
export const STATUS_GARBLED = -2;

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const GRPC_STATUS = ascii("grpc-status");
const GRPC_MESSAGE = ascii("grpc-message");
const CONTENT_TYPE = ascii("content-type");
const GRPC_ENCODING = ascii("grpc-encoding");
const APPLICATION_GRPC = ascii("application/grpc");
const IDENTITY = ascii("identity");

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

/** One answer's gRPC fields; `reset` per call. HOT PATH: bytes compared in place, so OK makes no string. */
export class GrpcFields {
  /** The code, STATUS_MISSING or STATUS_GARBLED. */
  status = STATUS_MISSING;
  /** As sent (percent-encoded); kept only while the status is not OK. */
  message = "";
  grpcContentType = false;
  /** The head's `content-type` when it is not gRPC's, else "". */
  contentType = "";
  /** "" for none or `identity`. */
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
      const status = grpcStatusValue(value, at, len);
      this.status = status < 0 ? STATUS_GARBLED : status;
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

  /** The same for a field as text (Latin-1). */
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

/** A call's code: `grpc-status`, else gRPC's HTTP mapping of a non-200, else STATUS_MISSING or _GARBLED. */
export function callOutcome(fields: GrpcFields, httpStatus: number): number {
  if (fields.status >= 0) return fields.status;
  if (fields.status === STATUS_MISSING && httpStatus !== 200) return grpcCodeOfHttpStatus(httpStatus);
  return fields.status;
}
