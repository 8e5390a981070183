/**
 * @module
 * A gRPC answer's header blocks gathered field by field from the HPACK decoder's bytes, the call's outcome
 * and its `grpc-message` text (percent-decoded; a malformed escape is kept as written).
 */
import { GRPC_OK, grpcCodeOfHttpStatus, grpcStatusValue } from "./status.ts";
import { bytesOf, latin1, sameBytes } from "../http1/chars.ts";

export const STATUS_MISSING = -1;
export const STATUS_GARBLED = -2;

const GRPC_STATUS = bytesOf("grpc-status");
const GRPC_MESSAGE = bytesOf("grpc-message");
const CONTENT_TYPE = bytesOf("content-type");
const GRPC_ENCODING = bytesOf("grpc-encoding");
const APPLICATION_GRPC = bytesOf("application/grpc");
const IDENTITY = bytesOf("identity");

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
  /** A `grpc-status` that is no number, as sent (its first 40 characters). */
  garbledStatus = "";

  /** One field as bytes where they lie (names come lower case). */
  fieldBytes(
    name: Uint8Array,
    nameOff: number,
    nameLen: number,
    value: Uint8Array,
    at: number,
    len: number,
  ): void {
    if (sameBytes(name, nameOff, nameLen, GRPC_STATUS)) {
      const status = grpcStatusValue(value, at, len);
      this.status = status < 0 ? STATUS_GARBLED : status;
      if (status < 0) this.garbledStatus = latin1(value, at, Math.min(len, 40));
    } else if (sameBytes(name, nameOff, nameLen, GRPC_MESSAGE)) {
      if (this.status !== GRPC_OK) this.message = latin1(value, at, len);
    } else if (sameBytes(name, nameOff, nameLen, CONTENT_TYPE)) {
      // application/grpc, or one of its +proto, +json... forms.
      this.grpcContentType = sameBytes(value, at, Math.min(len, APPLICATION_GRPC.length), APPLICATION_GRPC);
      this.contentType = this.grpcContentType ? "" : latin1(value, at, len);
    } else if (sameBytes(name, nameOff, nameLen, GRPC_ENCODING)) {
      this.encoding = sameBytes(value, at, len, IDENTITY) ? "" : latin1(value, at, len);
    }
  }

  reset(): void {
    this.status = STATUS_MISSING;
    this.message = "";
    this.grpcContentType = false;
    this.contentType = "";
    this.encoding = "";
    this.garbledStatus = "";
  }
}

/** A call's code: `grpc-status`, else gRPC's HTTP mapping of a non-200, else STATUS_MISSING or _GARBLED. */
export function callOutcome(fields: GrpcFields, httpStatus: number): number {
  if (fields.status >= 0) return fields.status;
  if (fields.status === STATUS_MISSING && httpStatus !== 200) return grpcCodeOfHttpStatus(httpStatus);
  return fields.status;
}

const utf8 = new TextEncoder();
const text = new TextDecoder();

export function encodeGrpcMessage(message: string): string {
  let out = "";
  for (const b of utf8.encode(message)) {
    out += b >= 0x20 && b <= 0x7e && b !== 0x25
      ? String.fromCharCode(b)
      : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** A `grpc-message` value, read as Latin-1 octets, as its text. */
export function decodeGrpcMessage(value: string): string {
  if (!value.includes("%")) return value;
  const bytes: number[] = [];
  for (let k = 0; k < value.length; k++) {
    const hex = value.charCodeAt(k) === 0x25 ? value.slice(k + 1, k + 3) : "";
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      k += 2;
    } else bytes.push(value.charCodeAt(k) & 0xff);
  }
  return text.decode(new Uint8Array(bytes));
}
