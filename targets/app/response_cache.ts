/**
 * @module
 * An in-process response cache with a TTL (like `apicache`) for 200 GET answers; with `versionCheck`,
 * hits of an older version count as `staleHits`, so the TTL's cost shows beside its gain.
 */
import type { MiddlewareHandler } from "hono";

interface Entry {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  expiresAtMs: number;
}

interface ResponseCacheStats {
  hits: number;
  misses: number;
  /** Hits that served a version older than the page's current one. */
  staleHits: number;
  entries: number;
}

/** How the cache tells a stale copy: the header the page's version is in, and its version now. */
interface VersionCheck {
  header: string;
  /** The current version of the page at `path`, or null when it is not versioned. */
  currentVersion(path: string): string | null;
}

export class ResponseCache {
  readonly stats: ResponseCacheStats = { hits: 0, misses: 0, staleHits: 0, entries: 0 };
  #entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 10_000,
    readonly nowMs: () => number = Date.now,
    readonly versionCheck: VersionCheck | null = null,
  ) {}

  /** Hono middleware: answers from the cache or stores what the inner handlers produced. */
  middleware(keyExtra: (accept: string | undefined) => string = () => ""): MiddlewareHandler {
    return async (c, next) => {
      if (c.req.method !== "GET") return await next();
      const key = `${c.req.url}|${keyExtra(c.req.header("accept-encoding"))}`;
      const hit = this.#entries.get(key);
      if (hit && hit.expiresAtMs > this.nowMs()) {
        this.stats.hits++;
        if (this.versionCheck) this.#checkVersion(c.req.path, hit);
        const headers = new Headers(hit.headers);
        headers.set("x-cache", "HIT");
        c.res = new Response(hit.body.slice(), { status: hit.status, headers });
        return;
      }
      this.stats.misses++;
      await next();
      if (c.res.status !== 200 || !c.res.body) return;
      const body = new Uint8Array(await c.res.arrayBuffer());
      const headers = new Headers(c.res.headers);
      this.#store(key, { status: 200, headers: [...headers], body, expiresAtMs: this.nowMs() + this.ttlMs });
      headers.set("x-cache", "MISS");
      c.res = new Response(body, { status: 200, headers });
    };
  }

  #checkVersion(path: string, hit: Entry): void {
    const current = this.versionCheck!.currentVersion(path);
    if (current === null) return;
    const header = this.versionCheck!.header;
    const served = hit.headers.find(([name]) => name === header)?.[1];
    if (served !== undefined && served !== current) this.stats.staleHits++;
  }

  #store(key: string, entry: Entry): void {
    if (!this.#entries.has(key) && this.#entries.size >= this.maxEntries) this.#evictExpiredOrOldest();
    this.#entries.set(key, entry);
    this.stats.entries = this.#entries.size;
  }

  #evictExpiredOrOldest(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.#entries) if (entry.expiresAtMs <= now) this.#entries.delete(key);
    if (this.#entries.size >= this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }
}
