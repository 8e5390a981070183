/**
 * @module
 * The `grpc-timeout` header ("TimeoutValue TimeoutUnit", at most 8 digits, unit one of H M S m u n).
 */

const MAX_VALUE = 99_999_999;

const UNITS = [["m", 1], ["S", 1000], ["M", 60_000], ["H", 3_600_000]] as const;

/** `timeoutMs` in the finest unit that fits 8 digits, rounded up so the server never gives up first. */
export function grpcTimeoutOf(timeoutMs: number): string {
  const ms = Math.max(1, Math.ceil(timeoutMs));
  for (const [unit, size] of UNITS) {
    const value = Math.ceil(ms / size);
    if (value <= MAX_VALUE) return `${value}${unit}`;
  }
  return `${MAX_VALUE}H`;
}
