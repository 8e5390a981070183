/**
 * @module
 * A caching, rate-limiting reverse proxy (cache-aside): a failing Redis is a bypass, no error.
 */
import { Buffer } from "node:buffer";
import { commandOptions } from "redis";
import { RedisRateLimiter } from "./rate_limit.ts";
import { withTimeout } from "../../system/sleep.ts";
import type { RedisClient } from "../redis.ts";
import { STATS_PATH } from "../spec.ts";
import { Agent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { concatBytes } from "../../system/copy_bytes.ts";

interface ProxyOptions {
  upstreamUrl: string;
  /** An `https:` upstream's verification (its CA, or none). */
  upstreamTls?: UpstreamTls;
  redis: RedisClient;
  /** 0 or absent disables caching (rate limiting only). */
  cacheTtlSec?: number;
  rateLimit?: { limit: number; windowMs: number };
  /** Longest a Redis command may take before the proxy bypasses it. */
  redisTimeoutMs?: number;
}

/** Counters of the proxy, read through `/__loadlab/stats` by the process that started it. */
type ProxyStats = ReturnType<typeof zeroStats>;

const CACHE_PREFIX = "loadlab:cache:";

/** Cached answer as one Redis value: a JSON line with status and headers, then the body bytes. */
export function encodeEntry(res: UpstreamResponse): Buffer {
  const meta = Buffer.from(JSON.stringify({ s: res.status, h: res.headers }) + "\n");
  return Buffer.concat([meta, Buffer.from(res.body.buffer, res.body.byteOffset, res.body.byteLength)]);
}

export function decodeEntry(value: Uint8Array): UpstreamResponse {
  const newline = value.indexOf(10);
  const meta = JSON.parse(new TextDecoder().decode(value.subarray(0, newline)));
  return { status: meta.s, headers: meta.h, body: value.slice(newline + 1) };
}

function cacheable(res: UpstreamResponse): boolean {
  if (res.status !== 200) return false;
  for (const [name, value] of res.headers) {
    const lower = name.toLowerCase();
    if (lower === "set-cookie") return false;
    if (lower === "cache-control" && /no-store|private/i.test(value)) return false;
  }
  return true;
}

interface ProxyState {
  opts: ProxyOptions;
  upstream: Upstream;
  limiter: RedisRateLimiter | null;
  stats: ProxyStats;
  /** `redisTimeoutMs`, 200 by default. */
  timeoutMs: number;
  /** 0 when caching is off. */
  ttlMs: number;
}

function zeroStats() {
  return {
    hits: 0,
    misses: 0,
    /** Served from the upstream because Redis failed or was too slow. */
    bypasses: 0,
    /** Not cacheable (not GET): straight upstream. */
    passes: 0,
    /** Answered 429 by the rate limiter. */
    limited: 0,
    /** Let through because the rate limiter could not reach Redis. */
    limiterBypasses: 0,
    upstreamErrors: 0,
    /** Cache writes that failed after a miss (the next request is simply another miss). */
    writeErrors: 0,
  };
}

/** The upstream's answer, or the 502 to send when the upstream cannot be reached. */
async function sendUpstream(state: ProxyState, req: Request): Promise<UpstreamResponse | Response> {
  try {
    return await state.upstream.send(req);
  } catch (err) {
    state.stats.upstreamErrors++;
    return badGateway(state.opts.upstreamUrl, err);
  }
}

/** The upstream's answer (with `extra` headers), or 502 when the upstream cannot be reached. */
async function forwardToUpstream(state: ProxyState, req: Request, extra?: [string, string][]) {
  const res = await sendUpstream(state, req);
  return res instanceof Response ? res : toResponse(res, extra);
}

/** 429 when the client is over its rate; null to serve it (no limiter, or the limiter cannot reach Redis). */
async function limitClient(state: ProxyState, clientKey: string): Promise<Response | null> {
  if (!state.limiter) return null;
  try {
    const decision = await state.limiter.check(clientKey);
    if (decision.allowed) return null;
    state.stats.limited++;
    return Response.json({ error: "too many requests" }, {
      status: 429,
      headers: { "retry-after": String(decision.retryAfterSec), "ratelimit-remaining": "0" },
    });
  } catch {
    state.stats.limiterBypasses++;
    return null;
  }
}

/** Cache-aside for one GET: a hit from Redis, else the upstream's answer, kept when it may be. */
async function serveCached(state: ProxyState, req: Request): Promise<Response> {
  const { opts, stats, timeoutMs } = state;
  const url = req.url;
  const key = `${CACHE_PREFIX}${url.slice(url.indexOf("/", 8))}|${req.headers.get("accept-encoding") ?? ""}`;
  let value: Buffer | null;
  try {
    value = await withTimeout(opts.redis.get(commandOptions({ returnBuffers: true }), key), timeoutMs);
  } catch {
    stats.bypasses++;
    return await forwardToUpstream(state, req, [["x-cache", "BYPASS"]]);
  }
  if (value) {
    stats.hits++;
    return toResponse(decodeEntry(value), [["x-cache", "HIT"]]);
  }
  stats.misses++;
  const res = await sendUpstream(state, req);
  if (res instanceof Response) return res;
  if (cacheable(res)) {
    // Not awaited: a failed cache write is only a later miss, counted apart from bypasses.
    withTimeout(opts.redis.set(key, encodeEntry(res), { PX: state.ttlMs }), timeoutMs).catch(() =>
      stats.writeErrors++
    );
  }
  return toResponse(res, [["x-cache", "MISS"]]);
}

export function createProxy(opts: ProxyOptions) {
  const upstream = new Upstream(opts.upstreamUrl, opts.upstreamTls);
  const timeoutMs = opts.redisTimeoutMs ?? 200;
  const ttlMs = Math.round((opts.cacheTtlSec ?? 0) * 1000);
  const limiter = opts.rateLimit
    ? new RedisRateLimiter(opts.redis, opts.rateLimit.limit, opts.rateLimit.windowMs, timeoutMs)
    : null;
  const stats = zeroStats();
  const state: ProxyState = { opts, upstream, limiter, stats, timeoutMs, ttlMs };
  return {
    stats,
    async fetch(req: Request, clientKey: string): Promise<Response> {
      if (req.url.endsWith(STATS_PATH)) return Response.json(stats);
      const limited = await limitClient(state, clientKey);
      if (limited) return limited;
      if (ttlMs <= 0) return await forwardToUpstream(state, req);
      if (req.method !== "GET") {
        stats.passes++;
        return await forwardToUpstream(state, req);
      }
      return await serveCached(state, req);
    },
    close() {
      upstream.close();
    },
  };
}

/** How the proxy verifies an `https:` upstream: extra trusted CAs (PEM), or no verification at all. */
type UpstreamTls = { caCerts?: string[]; insecure?: boolean };

type UpstreamResponse = { status: number; headers: [string, string][]; body: Uint8Array<ArrayBuffer> };

/** Headers that describe one hop, not the message, and so are not forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(
  "connection keep-alive proxy-connection transfer-encoding upgrade te trailer host content-length".split(
    " ",
  ),
);

/** Forwards with `node:http`, buffered: `fetch` decompresses bodies yet keeps `content-encoding`. */
class Upstream {
  readonly #agent: Agent;
  readonly #request: typeof httpRequest;
  readonly hostname: string;
  readonly port: number;

  constructor(readonly baseUrl: string, tls: UpstreamTls = {}) {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new TypeError(`upstream must be http:// or https://, got ${baseUrl}`);
    }
    const https = url.protocol === "https:";
    this.hostname = url.hostname;
    this.port = Number(url.port || (https ? 443 : 80));
    const keepAlive = { keepAlive: true, maxSockets: 1024 };
    this.#agent = https
      ? new HttpsAgent({
        ...keepAlive,
        ca: tls.caCerts,
        rejectUnauthorized: !tls.insecure,
      }) as unknown as Agent
      : new Agent(keepAlive);
    this.#request = https ? httpsRequest as unknown as typeof httpRequest : httpRequest;
  }

  /** Sends `req` (method, path+query, headers, body) upstream and buffers the answer. */
  async send(req: Request): Promise<UpstreamResponse> {
    const url = req.url;
    const path = url.slice(url.indexOf("/", 8));
    const headers: Record<string, string> = {};
    req.headers.forEach((value, key) => {
      if (!HOP_BY_HOP.has(key)) headers[key] = value;
    });
    const body = req.body ? new Uint8Array(await req.arrayBuffer()) : null;
    if (body) headers["content-length"] = String(body.length);
    return await new Promise<UpstreamResponse>((resolve, reject) => {
      const out = this.#request(
        { hostname: this.hostname, port: this.port, path, method: req.method, headers, agent: this.#agent },
        (res) => {
          const chunks: Uint8Array[] = [];
          res.on("data", (chunk: Uint8Array) => chunks.push(chunk));
          res.on("error", reject);
          const end = { status: res.statusCode ?? 502, headers: pairs(res.rawHeaders) };
          res.on("end", () => resolve({ ...end, body: concatBytes(chunks) }));
        },
      );
      out.on("error", reject);
      out.end(body ?? undefined);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i].toLowerCase())) out.push([raw[i], raw[i + 1]]);
  }
  return out;
}

function toResponse(up: UpstreamResponse, extraHeaders?: [string, string][]): Response {
  const headers = new Headers(up.headers);
  if (extraHeaders) { for (const [k, v] of extraHeaders) headers.set(k, v); }
  const nullBody = up.status === 204 || up.status === 304 || up.body.length === 0 && up.status < 200;
  return new Response(nullBody ? null : up.body, { status: up.status, headers });
}

/** 502 with the reason, when the upstream cannot be reached. */
export function badGateway(upstream: string, err: unknown): Response {
  return Response.json({ error: `upstream ${upstream} failed: ${(err as Error).message}` }, { status: 502 });
}
