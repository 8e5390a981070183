/**
 * @module
 * A fixed-window rate limiter in Redis, so proxy instances share one budget per client: one MULTI per
 * request keeps window and count in step. When Redis is down requests pass, counted: no outage spreads.
 */
import type { RedisClient } from "../redis.ts";
import { withTimeout } from "../../system/sleep.ts";
import { durationMsOf } from "../../validation/duration.ts";

export class RedisRateLimiter {
  constructor(
    readonly client: RedisClient,
    readonly limit: number,
    readonly windowMs: number,
    readonly timeoutMs: number,
  ) {}

  /** Counts one request of `clientKey`; throws when Redis fails (the caller decides to fail open). */
  async check(clientKey: string) {
    const key = `loadlab:ratelimit:${clientKey}`;
    const replies = await withTimeout(
      this.client.multi().set(key, "0", { PX: this.windowMs, NX: true }).incr(key).pTTL(key).exec(),
      this.timeoutMs,
    );
    const count = Number(replies[1]);
    const ttlMs = Number(replies[2]);
    const retryAfterSec = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : this.windowMs) / 1000));
    return { allowed: count <= this.limit, retryAfterSec };
  }
}

/** Parses `100/1s`, `10/500ms`, `600/1m` into a limit and a window; null when malformed. */
export function parseRateLimit(text: string): { limit: number; windowMs: number } | null {
  const m = /^(\d+)\/(\d*\.?\d*)(ms|s|m|h)$/.exec(text.trim());
  // A window without a number is one of its unit (`600/m`).
  const windowMs = Math.round(m ? durationMsOf(`${Number(m[2] || 1)}${m[3]}`) ?? NaN : NaN);
  return m && Number(m[1]) > 0 && windowMs > 0 ? { limit: Number(m[1]), windowMs } : null;
}
