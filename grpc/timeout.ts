/**
 * @module
 * The `grpc-timeout` header ("TimeoutValue TimeoutUnit", at most 8 digits, unit one of H M S m u n).
 */

const MAX_VALUE = 99_999_999;

const UNITS: readonly (readonly [string, number])[] = [
  ["m", 1],
  ["S", 1000],
  ["M", 60_000],
  ["H", 3_600_000],
];

/** `timeoutMs` in the finest unit that fits 8 digits, rounded up so the server never gives up first. */
export function grpcTimeoutOf(timeoutMs: number): string {
  const ms = Math.max(1, Math.ceil(timeoutMs));
  for (const [unit, size] of UNITS) {
    const value = Math.ceil(ms / size);
    if (value <= MAX_VALUE) return `${value}${unit}`;
  }
  return `${MAX_VALUE}H`;
}

const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1000, m: 1, u: 1e-3, n: 1e-6 };

/** A `grpc-timeout` value in milliseconds, or -1 when it is malformed. */
export function parseGrpcTimeout(value: string): number {
  const m = /^(\d{1,8})([HMSmun])$/.exec(value);
  return m === null ? -1 : Number(m[1]) * UNIT_MS[m[2]];
}
