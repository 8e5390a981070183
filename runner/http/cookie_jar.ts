/**
 * @module
 * One session's cookies (RFC 6265, what matters to a client of one target): `Set-Cookie` of a response
 * is kept for the session's later steps with its Path (default: the request path's folder), expiry
 * (`Max-Age` over `Expires`; a past one deletes the cookie), `Secure` (sent only over https) and
 * `Domain` (kept only when the target host is that domain or below it). The `Cookie:` line is encoded
 * once per change of the jar or of the request path, not per step.
 */

const encoder = new TextEncoder();

interface Cookie {
  name: string;
  value: string;
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

export class CookieJar {
  readonly #cookies: Cookie[] = [];
  #line: Uint8Array | null = null;
  #linePath: string | null = null;
  /** Earliest expiry among the cookies: the cached line is stale past it. */
  #nextExpiryMs = Infinity;

  /** `host`: the target's host name (no port); `https`: whether Secure cookies may be sent. */
  constructor(readonly host: string, readonly https: boolean) {}

  get size(): number {
    return this.#cookies.length;
  }

  /** Takes the `Set-Cookie` values of a response to `requestPath`, received at `nowMs` (epoch ms). */
  set(setCookies: readonly string[], requestPath: string, nowMs: number): void {
    for (const header of setCookies) this.#setOne(header, requestPath, nowMs);
  }

  #setOne(header: string, requestPath: string, nowMs: number): void {
    const [pair, ...attributes] = header.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) return;
    const cookie: Cookie = {
      name: pair.slice(0, eq).trim(),
      value: pair.slice(eq + 1).trim(),
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
      else if (key === "domain" && value !== "" && !domainMatches(this.host, value)) return;
      else if (key === "max-age" && /^-?\d+$/.test(value)) maxAge = Number(value);
      else if (key === "expires") {
        const ms = Date.parse(value);
        if (!Number.isNaN(ms)) cookie.expiresMs = ms;
      }
    }
    if (maxAge !== undefined) cookie.expiresMs = maxAge <= 0 ? -Infinity : nowMs + maxAge * 1000;
    const same = this.#cookies.findIndex((c) => c.name === cookie.name && c.path === cookie.path);
    if (same >= 0) this.#cookies.splice(same, 1);
    if (cookie.expiresMs > nowMs) this.#cookies.push(cookie);
    this.#line = this.#linePath = null;
  }

  /** The `Cookie: ...\r\n` line for a request to `requestPath` at `nowMs`, or null when none applies. */
  line(requestPath: string, nowMs: number): Uint8Array | null {
    if (this.#cookies.length === 0) return null;
    if (nowMs >= this.#nextExpiryMs) this.#expire(nowMs);
    if (this.#linePath === requestPath) return this.#line;
    const sent = this.#cookies.filter((c) => (!c.secure || this.https) && pathMatches(requestPath, c.path))
      // Longer paths first (RFC 6265 5.4).
      .sort((a, b) => b.path.length - a.path.length);
    this.#line = sent.length === 0
      ? null
      : encoder.encode(`Cookie: ${sent.map((c) => `${c.name}=${c.value}`).join("; ")}\r\n`);
    this.#linePath = requestPath;
    this.#nextExpiryMs = Math.min(...this.#cookies.map((c) => c.expiresMs));
    return this.#line;
  }

  #expire(nowMs: number): void {
    for (let k = this.#cookies.length - 1; k >= 0; k--) {
      if (this.#cookies[k].expiresMs <= nowMs) this.#cookies.splice(k, 1);
    }
    this.#line = this.#linePath = null;
    this.#nextExpiryMs = Infinity;
  }
}
