/**
 * @module
 * The built-in target: a Hono app with the endpoints the studies need; `/`, `/json` and the stats path are
 * constant strings answered before Hono routes. Login tokens are signed, not stored: any instance takes them.
 */
import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { compressMiddleware, negotiateEncoding } from "./compress.ts";
import { type CmsOptions, cmsStats, PoolTimeoutError, QueryPool, resolveCms, runPageQueries } from "./cms.ts";
import {
  busyCpu,
  divideBy,
  fib,
  NEWS_PATH,
  newsVersion,
  renderHomePage,
  renderNewsPage,
  USER_RECORD,
  VERSION_HEADER,
} from "./endpoints.ts";
import { type BuiltinSpec, STATS_PATH } from "../spec.ts";
import { createStaticStore, type StaticStore } from "./static_files.ts";

/** What `/redis/:key` reads from; the npm `redis` client satisfies it. */
interface KeyReader {
  get(key: string): Promise<string | null>;
}

/** The app's fields of a built-in target's spec, its Redis, and the clock of the news page and the cache. */
type TargetAppOptions = Pick<BuiltinSpec, "compress" | "cacheTtlSec" | "staticDir" | "cms"> & {
  redis?: KeyReader | null;
  nowMs?: () => number;
};

export const ENDPOINTS: ReadonlyArray<readonly [string, string]> = [
  ["/", "hello text"],
  ["/json", "static JSON"],
  ["/static/*", "sample pages and images (or --static-dir)"],
  ["/cpu?ms=N", "busy CPU for N ms"],
  ["/fib/:n", "recursive Fibonacci, e.g. /fib/23"],
  ["/sleep?ms=N", "answer after N ms"],
  ["/redis/:key", "GET from Redis (keys key:0..key:99 are written at start)"],
  ["/error/:n", "500 through the error handler when n is 1"],
  ["/validate?id=<int>&name=<min 5 chars>", "zod validation, 400 with the reason"],
  ["/user?delayMs=N", "a JSON user record, optionally slow"],
  ["POST /echo", "the request's body back, with its content-type (gRPC's Echo over HTTP)"],
  ["/home", "CMS-like page: queries on a bounded pool, then rendered"],
  ["/static/news.html", "a page whose version changes every second"],
  ["POST /login", 'JSON {user, password: "secret"} -> {token} and a session cookie'],
  ["/me", "200 {user} with the Bearer token and the session cookie of /login, else 401"],
  ["/ws/echo", "WebSocket: every message sent back"],
  ["/ws/room?room=NAME", 'WebSocket: every message to every member, JSON with "sentAt" and "self"'],
];

const HELLO_TEXT = "Hello, World!";
const JSON_TEXT = JSON.stringify({ message: "Hello, World!" });
/** The same bodies as bytes, for the Hono routes (through the response cache and compression). */
const HELLO_BYTES = new TextEncoder().encode(HELLO_TEXT);
export const JSON_BYTES = new TextEncoder().encode(JSON_TEXT);

const validateQuery = z.object({
  id: z.coerce.number({ error: "id must be an integer" }).int("id must be an integer"),
  name: z.string({ error: "name is required" }).min(5, "name must have at least 5 characters"),
});

/** Integer query parameter in [0, max], or an error message naming it. */
function intParam(raw: string | undefined, name: string, max: number): number | string {
  const value = Number(raw ?? "0");
  if (!Number.isInteger(value) || value < 0 || value > max) return `${name} must be an integer 0..${max}`;
  return value;
}

function buildHono(opts: TargetAppOptions, cache: ResponseCache | null, pool: QueryPool, cms: CmsOptions) {
  const app = new Hono();
  const nowMs = opts.nowMs ?? Date.now;
  const readStatic = createStaticStore(opts.staticDir);
  if (cache) {
    app.use(cache.middleware((accept) => negotiateEncoding(accept ?? null, opts.compress ?? false) ?? ""));
  }
  if (opts.compress) app.use(compressMiddleware(opts.compress));
  addPageRoutes(app, nowMs, readStatic);
  addWorkRoutes(app, opts);
  app.get("/home", async (c) => {
    try {
      await runPageQueries(pool, cms);
    } catch (err) {
      if (err instanceof PoolTimeoutError) return c.json({ error: err.message }, 503);
      throw err;
    }
    return c.html(renderHomePage(new Date(nowMs())));
  });
  addSessionRoutes(app);
  app.onError((err, c) => c.json({ error: err.message }, 500));
  return app;
}

/** `/`, `/json`, the news page and `/static/*`; the news page first, as `/static/*` matches its path too. */
function addPageRoutes(app: Hono, nowMs: () => number, readStatic: StaticStore): void {
  app.get("/", (c) => c.body(HELLO_BYTES.slice(), 200, { "content-type": "text/plain;charset=UTF-8" }));
  app.get("/json", (c) => c.body(JSON_BYTES.slice(), 200, { "content-type": "application/json" }));
  app.get(NEWS_PATH, (c) => {
    const version = newsVersion(nowMs());
    return c.html(renderNewsPage(version), 200, { [VERSION_HEADER]: version });
  });
  app.get("/static/*", async (c) => {
    const file = await readStatic(c.req.path.slice("/static/".length));
    if (!file) return c.json({ error: `no such file: ${c.req.path}` }, 404);
    return c.body(file.bytes.slice(), 200, { "content-type": file.contentType });
  });
}

/** The endpoints that make a known cost: CPU, waiting, Redis, errors, validation and a record. */
function addWorkRoutes(app: Hono, opts: TargetAppOptions): void {
  app.get("/cpu", (c) => {
    const ms = intParam(c.req.query("ms"), "ms", 10_000);
    return typeof ms === "string" ? c.json({ error: ms }, 400) : c.json({ ms, spins: busyCpu(ms) });
  });
  app.get("/fib/:n", (c) => {
    const n = intParam(c.req.param("n"), "n", 40);
    return typeof n === "string" ? c.json({ error: n }, 400) : c.json({ n, fib: fib(n) });
  });
  app.get("/sleep", async (c) => {
    const ms = intParam(c.req.query("ms"), "ms", 600_000);
    if (typeof ms === "string") return c.json({ error: ms }, 400);
    await new Promise((r) => setTimeout(r, ms));
    return c.json({ sleptMs: ms });
  });
  app.get("/redis/:key", async (c) => {
    if (!opts.redis) {
      return c.json({ error: "no Redis configured: start the target with --redis <url>" }, 503);
    }
    const value = await opts.redis.get(c.req.param("key"));
    return value === null
      ? c.json({ error: "no such key" }, 404)
      : c.json({ key: c.req.param("key"), value });
  });
  app.get("/error/:n", (c) => c.json({ result: divideBy(Number(c.req.param("n"))) }));
  app.get("/validate", (c) => {
    const parsed = validateQuery.safeParse(c.req.query());
    if (parsed.success) return c.json({ ok: true, ...parsed.data });
    return c.json({ error: "validation failed", issues: parsed.error.issues.map((i) => i.message) }, 400);
  });
  // The request's bytes back as they came, as gRPC's Echo does (the grpc-vs-json study).
  app.post("/echo", async (c) =>
    c.body(await c.req.arrayBuffer(), 200, {
      "content-type": c.req.header("content-type") ?? "application/octet-stream",
    }));
  app.get("/user", async (c) => {
    const delayMs = intParam(c.req.query("delayMs"), "delayMs", 600_000);
    if (typeof delayMs === "string") return c.json({ error: delayMs }, 400);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    return c.json(USER_RECORD);
  });
}

/** A test target: the point is the round trip, not the secret. */
const LOGIN_PASSWORD = "secret";

/** FNV-1a of `text` as 8 hex digits: makes a hand-made token fail; not a security boundary. */
function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let k = 0; k < text.length; k++) {
    h ^= text.charCodeAt(k);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

function sign(kind: string, user: string): string {
  const id = encodeURIComponent(user);
  return `${kind}.${id}.${fnv(`${kind}:${id}:loadlab`)}`;
}

/** The user a signed value of `kind` names, or null when it is not one of ours. */
function verify(kind: string, value: string | null | undefined): string | null {
  const parts = value?.split(".");
  if (parts?.length !== 3 || parts[0] !== kind || fnv(`${kind}:${parts[1]}:loadlab`) !== parts[2]) {
    return null;
  }
  try {
    return decodeURIComponent(parts[1]);
  } catch {
    return null;
  }
}

/** The token and cookie value for a login body, or null when the login fails. */
function login(body: unknown): { token: string; session: string; user: string } | null {
  if (body === null || typeof body !== "object") return null;
  const { user, password } = body as Record<string, unknown>;
  if (typeof user !== "string" || user === "" || password !== LOGIN_PASSWORD) return null;
  return { token: sign("t", user), session: sign("s", user), user };
}

function sessionCookie(cookie: string | null | undefined): string | null {
  for (const part of (cookie ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "session") return rest.join("=");
  }
  return null;
}

/** The user of a request with a valid bearer token and session cookie of the same user, or null. */
function whoAmI(authorization: string | null | undefined, cookie: string | null | undefined): string | null {
  const bearer = authorization?.startsWith("Bearer ") ? authorization.slice(7).trim() : null;
  const user = verify("t", bearer);
  return user !== null && verify("s", sessionCookie(cookie)) === user ? user : null;
}

/** `POST /login` and `/me`: a session that needs both the Bearer token and the cookie. */
function addSessionRoutes(app: Hono): void {
  app.post("/login", async (c) => {
    const session = login(await c.req.json().catch(() => null));
    if (session === null) {
      return c.json({ error: `login needs JSON {user, password: "${LOGIN_PASSWORD}"}` }, 401);
    }
    c.header("set-cookie", `session=${session.session}; Path=/; HttpOnly; SameSite=Lax`);
    return c.json({ token: session.token, user: session.user });
  });
  app.get("/me", (c) => {
    const user = whoAmI(c.req.header("authorization"), c.req.header("cookie"));
    if (user === null) {
      return c.json({ error: "needs Authorization: Bearer <token> and the session cookie of /login" }, 401);
    }
    return c.json({ user });
  });
}

export function createTargetApp(opts: TargetAppOptions = {}) {
  const nowMs = opts.nowMs ?? Date.now;
  const cache = opts.cacheTtlSec
    ? new ResponseCache(opts.cacheTtlSec * 1000, nowMs, {
      header: VERSION_HEADER,
      currentVersion: (path) => path === NEWS_PATH ? newsVersion(nowMs()) : null,
    })
    : null;
  const cms = resolveCms(opts.cms);
  const pool = new QueryPool(cms.poolSize, cms.acquireTimeoutMs);
  const app = buildHono(opts, cache, pool, cms);
  const wsCounters = addWsEndpoints(app);
  const honoFetch = app.fetch;
  const stats = (): Record<string, number> => ({
    ...(cache
      ? { cacheHits: cache.stats.hits, cacheMisses: cache.stats.misses, staleHits: cache.stats.staleHits }
      : {}),
    ...cmsStats(pool),
    ...wsCounters(),
  });
  const fetch = (req: Request): Response | Promise<Response> => {
    // Only the URL is read: each Request property is a runtime call. `/` and `/json` answer any method.
    const url = req.url;
    const pathLength = url.length - url.indexOf("/", 8);
    // Strings, not bytes: `new Response(Uint8Array)` copies the bytes on every call (~15% more CPU).
    if (pathLength === 5 && url.endsWith("/json")) {
      return new Response(JSON_TEXT, { headers: { "content-type": "application/json" } });
    }
    // A string body gets `text/plain;charset=UTF-8` from the Fetch spec, the Hono route's header.
    if (pathLength === 1) return new Response(HELLO_TEXT);
    // pid: which instance answered, to see how reuse-port instances share a port.
    if (url.endsWith(STATS_PATH)) return Response.json({ pid: Deno.pid, ...stats() });
    return honoFetch(req);
  };
  return { app, fetch, cache, stats };
}

interface Entry {
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  expiresAtMs: number;
}

/** How the cache tells a stale copy: the header the page's version is in, and its version now. */
interface VersionCheck {
  header: string;
  /** The current version of the page at `path`, or null when it is not versioned. */
  currentVersion(path: string): string | null;
}

/** Entries the response cache holds at most: past it, the expired go, else the oldest. */
const MAX_CACHE_ENTRIES = 10_000;

/** A TTL response cache (as `apicache`) for 200 GETs; `versionCheck` counts stale hits as `staleHits`. */
class ResponseCache {
  readonly stats = { hits: 0, misses: 0, staleHits: 0 };
  #entries = new Map<string, Entry>();

  constructor(readonly ttlMs: number, readonly nowMs: () => number, readonly versionCheck: VersionCheck) {}

  /** Hono middleware: answers from the cache or stores what the inner handlers produced. */
  middleware(keyExtra: (accept: string | undefined) => string = () => ""): MiddlewareHandler {
    return async (c, next) => {
      if (c.req.method !== "GET") return await next();
      const key = `${c.req.url}|${keyExtra(c.req.header("accept-encoding"))}`;
      const hit = this.#entries.get(key);
      if (hit && hit.expiresAtMs > this.nowMs()) {
        this.stats.hits++;
        this.#checkVersion(c.req.path, hit);
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
    const current = this.versionCheck.currentVersion(path);
    if (current === null) return;
    const header = this.versionCheck.header;
    const served = hit.headers.find(([name]) => name === header)?.[1];
    if (served !== undefined && served !== current) this.stats.staleHits++;
  }

  #store(key: string, entry: Entry): void {
    if (!this.#entries.has(key) && this.#entries.size >= MAX_CACHE_ENTRIES) this.#evictExpiredOrOldest();
    this.#entries.set(key, entry);
  }

  #evictExpiredOrOldest(): void {
    const now = this.nowMs();
    for (const [key, entry] of this.#entries) if (entry.expiresAtMs <= now) this.#entries.delete(key);
    if (this.#entries.size >= MAX_CACHE_ENTRIES) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

/** The endpoints' cumulative counters (and the gauge of open sockets). */
type WsCounters = { wsOpen: number; wsMessagesIn: number; wsMessagesOut: number; wsRooms: number };

/**
 * Adds `/ws/echo` (echoes) and `/ws/room?room=NAME` (each text message to the room as JSON
 * `{room, from, self, sentAt, data}`, `self` marking the sender's copy) to `app`; the counters they keep.
 */
function addWsEndpoints(app: Hono): () => Partial<WsCounters> {
  const counters = { wsOpen: 0, wsMessagesIn: 0, wsMessagesOut: 0 };
  const state: WsState = { counters, rooms: new Map(), nextId: 0, upgrades: 0 };
  app.get("/ws/echo", (c) => upgrade(c.req.raw, state, echoHandlers(state)));
  app.get("/ws/room", (c) => {
    const name = c.req.query("room") || "main";
    return upgrade(c.req.raw, state, roomHandlers(state, name, state.nextId++));
  });
  // Absent until a first upgrade: an HTTP-only run's counters stay as they were.
  return () => state.upgrades === 0 ? {} : { ...state.counters, wsRooms: state.rooms.size };
}

interface WsState {
  counters: Omit<WsCounters, "wsRooms">;
  rooms: Map<string, Set<WebSocket>>;
  nextId: number;
  upgrades: number;
}

interface Handlers {
  open?(socket: WebSocket): void;
  message(socket: WebSocket, data: unknown): void;
  close?(socket: WebSocket): void;
}

/** Upgrades `req` to a WebSocket whose events go to `on`, counted in `state`; 426 when it asks for none. */
function upgrade(req: Request, state: WsState, on: Handlers): Response {
  const { counters } = state;
  if (req.headers.get("upgrade")?.toLowerCase() !== "websocket") {
    return new Response("expected a WebSocket upgrade\n", { status: 426, headers: { upgrade: "websocket" } });
  }
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.onopen = () => {
    counters.wsOpen++;
    state.upgrades++;
    on.open?.(socket);
  };
  socket.onmessage = (e) => {
    counters.wsMessagesIn++;
    on.message(socket, e.data);
  };
  socket.onclose = () => {
    counters.wsOpen--;
    on.close?.(socket);
  };
  socket.onerror = () => {};
  return response;
}

/** `/ws/echo`: every message sent back as it came. */
function echoHandlers(state: WsState): Handlers {
  return {
    message(socket, data) {
      socket.send(data as string | ArrayBuffer);
      state.counters.wsMessagesOut++;
    },
  };
}

/** `/ws/room`: sender `id` joins room `name`; each text message goes to every open member. */
function roomHandlers(state: WsState, name: string, id: number): Handlers {
  const { rooms } = state;
  return {
    open(socket) {
      let members = rooms.get(name);
      if (members === undefined) rooms.set(name, members = new Set());
      members.add(socket);
    },
    message(sender, data) {
      const sentAt = performance.timeOrigin + performance.now();
      const text = typeof data === "string" ? data : "";
      const others = JSON.stringify({ room: name, from: id, self: false, sentAt, data: text });
      const own = JSON.stringify({ room: name, from: id, self: true, sentAt, data: text });
      for (const member of rooms.get(name) ?? []) {
        if (member.readyState !== WebSocket.OPEN) continue;
        member.send(member === sender ? own : others);
        state.counters.wsMessagesOut++;
      }
    },
    close(socket) {
      const room = rooms.get(name);
      room?.delete(socket);
      if (room?.size === 0) rooms.delete(name);
    },
  };
}
