/**
 * @module
 * One session's cookies (RFC 6265 for a client of one target), scoped by the Host header sent (not the port,
 * 8.5), capped at 6.1's minimums; the `Cookie:` line is encoded once per change of jar, host or path.
 */

const encoder = new TextEncoder();

/** Cookies kept per domain (RFC 6265 6.1's minimum); past it the least recently set is evicted. */
export const MAX_COOKIES_PER_DOMAIN = 50;
/** Cookies kept in one jar (RFC 6265 6.1's minimum); past it the least recently set is evicted. */
export const MAX_COOKIES = 3_000;
/** Largest cookie kept, name, value and attributes (RFC 6265 6.1); a larger one is ignored as browsers do. */
export const MAX_COOKIE_BYTES = 4_096;
/** Control characters but tab: a cookie with one in its name or value is not kept. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

interface Cookie {
  name: string;
  value: string;
  /** The host that set it (host-only) or its Domain attribute, lower case without a leading dot. */
  domain: string;
  hostOnly: boolean;
  path: string;
  /** Wall-clock expiry (ms since the epoch); Infinity for a session cookie. */
  expiresMs: number;
  secure: boolean;
}

/** The folder of a request path, RFC 6265 5.1.4 (`/a/b?x` -> `/a`, `/a` -> `/`). */
export function defaultPath(requestPath: string): string {
  const path = requestPath.split("?")[0];
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** Whether a request path is in a cookie's path (RFC 6265 5.1.4). */
export function pathMatches(requestPath: string, cookiePath: string): boolean {
  const path = requestPath.split("?")[0];
  if (path === cookiePath) return true;
  if (!path.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || path[cookiePath.length] === "/";
}

/** Whether `host` is in the cookie domain `domain` (RFC 6265 5.1.3; no public-suffix list). */
export function domainMatches(host: string, domain: string): boolean {
  const d = domain.replace(/^\./, "").toLowerCase();
  const h = host.toLowerCase();
  return h === d || (h.endsWith(`.${d}`) && !/^[\d.]+$/.test(h) && !h.includes(":"));
}

/** The canonical request host of an authority (RFC 6265 5.1.2): lower case, no port, no IPv6 brackets. */
export function requestHostOf(authority: string): string {
  const a = authority.trim().toLowerCase();
  if (a.startsWith("[")) {
    const close = a.indexOf("]");
    return close < 0 ? a.slice(1) : a.slice(1, close);
  }
  const colon = a.indexOf(":");
  return colon < 0 ? a : a.slice(0, colon);
}

export class CookieJar {
  /** Domain -> cookies by `name;path`, least recently set first. */
  readonly #byDomain = new Map<string, Map<string, Cookie>>();
  /** Every cookie, least recently set first (the jar-wide eviction order). */
  readonly #all = new Set<Cookie>();
  #line: Uint8Array | null = null;
  /** The authority and path `#line` was made for (null: stale). */
  #lineAuthority: string | null = null;
  #linePath = "";
  /** Earliest expiry among the cookies (a bound: it may be of a cookie gone): the line is stale past it. */
  #nextExpiryMs = Infinity;

  constructor(readonly https: boolean) {}

  get size(): number {
    return this.#all.size;
  }

  clear(): void {
    this.#byDomain.clear(), this.#all.clear();
    this.#lineAuthority = null;
  }

  /** Takes a response's `Set-Cookie` values for `requestPath` on `authority`, at `nowMs` (epoch ms). */
  set(setCookies: readonly string[], authority: string, requestPath: string, nowMs: number): void {
    if (setCookies.length === 0) return;
    const host = requestHostOf(authority);
    for (const header of setCookies) this.#setOne(header, host, requestPath, nowMs);
    this.#lineAuthority = null;
  }

  #setOne(header: string, host: string, requestPath: string, nowMs: number): void {
    if (header.length > MAX_COOKIE_BYTES) return;
    const [pair, ...attributes] = header.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) return;
    const name = pair.slice(0, eq).trim(), value = pair.slice(eq + 1).trim();
    // A CR or LF would end the Cookie line and start a header of its own: ignored, as browsers do.
    if (CONTROL.test(name) || CONTROL.test(value)) return;
    const cookie: Cookie = {
      name,
      value,
      domain: host,
      hostOnly: true,
      path: defaultPath(requestPath),
      expiresMs: Infinity,
      secure: false,
    };
    let maxAge: number | undefined;
    for (const attribute of attributes) {
      const at = attribute.indexOf("=");
      const key = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
      const value = at < 0 ? "" : attribute.slice(at + 1).trim();
      if (key === "path" && value.startsWith("/")) cookie.path = value;
      else if (key === "secure") cookie.secure = true;
      else if (key === "domain" && value !== "") {
        // RFC 6265 5.3 step 6: a Domain the request's host is not in is refused; and, without a
        // public-suffix list, a single label (`test`, `com`) other than the host itself (step 5).
        const domain = value.replace(/^\./, "").toLowerCase();
        if (!domainMatches(host, domain) || (!domain.includes(".") && domain !== host)) return;
        cookie.domain = domain;
        cookie.hostOnly = false;
      } else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
      else if (key === "expires") {
        const ms = Date.parse(value);
        if (!Number.isNaN(ms)) cookie.expiresMs = ms;
      }
    }
    if (maxAge !== undefined) cookie.expiresMs = maxAge <= 0 ? -Infinity : nowMs + maxAge * 1000;
    // Replaces the cookie of the same name, domain and path (RFC 6265 5.3 step 11), then evicts.
    const key = `${cookie.name};${cookie.path}`;
    const old = this.#byDomain.get(cookie.domain)?.get(key);
    if (old !== undefined) this.#remove(old);
    if (cookie.expiresMs <= nowMs) return;
    let cookies = this.#byDomain.get(cookie.domain);
    if (cookies === undefined) this.#byDomain.set(cookie.domain, cookies = new Map());
    cookies.set(key, cookie);
    this.#all.add(cookie);
    if (cookie.expiresMs < this.#nextExpiryMs) this.#nextExpiryMs = cookie.expiresMs;
    if (cookies.size > MAX_COOKIES_PER_DOMAIN) this.#remove(cookies.values().next().value!);
    if (this.#all.size > MAX_COOKIES) this.#remove(this.#all.values().next().value!);
  }

  #remove(cookie: Cookie): void {
    this.#all.delete(cookie);
    const cookies = this.#byDomain.get(cookie.domain)!;
    cookies.delete(`${cookie.name};${cookie.path}`);
    if (cookies.size === 0) this.#byDomain.delete(cookie.domain);
  }

  /** The `Cookie: ...\r\n` line for `requestPath` on `authority` at `nowMs`, or null when none applies. */
  line(authority: string, requestPath: string, nowMs: number): Uint8Array | null {
    if (this.#all.size === 0) return null;
    if (nowMs >= this.#nextExpiryMs) {
      let next = Infinity;
      for (const c of this.#all) {
        if (c.expiresMs <= nowMs) this.#remove(c);
        else if (c.expiresMs < next) next = c.expiresMs;
      }
      this.#nextExpiryMs = next;
      this.#lineAuthority = null;
    }
    if (this.#lineAuthority === authority && this.#linePath === requestPath) return this.#line;
    const host = requestHostOf(authority);
    const sent: Cookie[] = [];
    for (const [domain, cookies] of this.#byDomain) {
      if (!domainMatches(host, domain)) continue;
      for (const c of cookies.values()) {
        if (c.hostOnly && c.domain !== host) continue;
        if ((!c.secure || this.https) && pathMatches(requestPath, c.path)) sent.push(c);
      }
    }
    // Longer paths first (RFC 6265 5.4); the sort is stable, so the earlier set first among equals.
    sent.sort((a, b) => b.path.length - a.path.length);
    this.#line = sent.length === 0
      ? null
      : encoder.encode(`Cookie: ${sent.map((c) => `${c.name}=${c.value}`).join("; ")}\r\n`);
    this.#lineAuthority = authority;
    this.#linePath = requestPath;
    return this.#line;
  }
}
