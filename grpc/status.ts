/**
 * @module
 * gRPC's status codes: their names, a `grpc-status` value read as a code, and the code of an answer that
 * carried no `grpc-status` (gRPC's "HTTP to gRPC status code mapping").
 */
import { decimalAt } from "../http1/chars.ts";

export const GRPC_CODE_NAMES: readonly string[] =
  ("OK CANCELLED UNKNOWN INVALID_ARGUMENT DEADLINE_EXCEEDED " +
    "NOT_FOUND ALREADY_EXISTS PERMISSION_DENIED RESOURCE_EXHAUSTED FAILED_PRECONDITION ABORTED OUT_OF_RANGE " +
    "UNIMPLEMENTED INTERNAL UNAVAILABLE DATA_LOSS UNAUTHENTICATED").split(" ");

export const GRPC_OK = 0;
export const GRPC_CANCELLED = 1;
export const GRPC_UNKNOWN = 2;
export const GRPC_INVALID_ARGUMENT = 3;
export const GRPC_DEADLINE_EXCEEDED = 4;
export const GRPC_RESOURCE_EXHAUSTED = 8;
export const GRPC_UNIMPLEMENTED = 12;
export const GRPC_INTERNAL = 13;
export const GRPC_UNAVAILABLE = 14;

/** The code a `grpc-status` value states as grpc-go reads it (a signed decimal as a uint32), or -1: none. */
export function grpcStatusValue(buf: Uint8Array, at: number, len: number): number {
  const sign = len > 1 && (buf[at] === 0x2d || buf[at] === 0x2b) ? 1 : 0;
  const code = len - sign > 15 ? -1 : decimalAt(buf, at + sign, at + len);
  if (code < 0) return -1;
  return (buf[at] === 0x2d && sign === 1 ? -code : code) >>> 0;
}

/** gRPC's HTTP mapping for an answer without `grpc-status` (another status: UNKNOWN). */
const CODE_OF_HTTP: Readonly<Record<number, number>> = {
  400: GRPC_INTERNAL,
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: GRPC_UNIMPLEMENTED,
  ...Object.fromEntries([429, 502, 503, 504].map((s) => [s, GRPC_UNAVAILABLE])),
};

export function grpcCodeOfHttpStatus(status: number): number {
  return CODE_OF_HTTP[status] ?? GRPC_UNKNOWN;
}
