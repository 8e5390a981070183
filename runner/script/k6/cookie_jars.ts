/**
 * @module
 * k6's cookie jars over RFC 6265 jars: `http.cookieJar()` is the session's own jar, `new http.CookieJar()`
 * the script's; as in k6, a request with its own jar leaves the VU's untouched.
 */
import { CookieJar as Jar, domainMatches } from "../../http/cookie_jar.ts";
import { jarOf } from "../sessions/cookies.ts";
import { current } from "./runtime.ts";

interface CookieOptions {
  domain?: string;
  path?: string;
  expires?: string;
  max_age?: number;
  secure?: boolean;
  http_only?: boolean;
}

const decoder = new TextDecoder();

/** k6's jar methods over `jar()`, a script's URL kept where `route` sends it. */
class JarView {
  constructor(readonly jar: () => Jar, readonly route: (url: string) => URL = (url) => new URL(url)) {}

  /** Sets cookie `name` as a response from `url` would; a domain that `url`'s host is not in drops it. */
  set(url: string, name: string, value: string, options: CookieOptions = {}): void {
    const u = this.route(url);
    if (options.domain !== undefined && !domainMatches(u.hostname, options.domain)) return;
    this.store(u, [setCookieLine(name, value, options)]);
  }

  cookiesForURL(url: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const line = this.cookieHeader(url);
    if (line === null) return out;
    for (const pair of line.split("; ")) {
      const eq = pair.indexOf("=");
      (out[pair.slice(0, eq)] ??= []).push(pair.slice(eq + 1));
    }
    return out;
  }

  /** As k6's: an expiry without a path, so it takes the folder of `url`'s path (RFC 6265 5.1.4). */
  delete(url: string, name: string): void {
    this.store(this.route(url), [`${name}=; Max-Age=0`]);
  }

  /** Each cookie `url` would be sent, expired as `delete` does (one of a path above the folder stays). */
  clear(url: string): void {
    const names = Object.keys(this.cookiesForURL(url));
    if (names.length > 0) this.store(this.route(url), names.map((name) => `${name}=; Max-Age=0`));
  }

  /** The `Cookie` value for a request to `url` (without the field name), or null when none applies. */
  cookieHeader(url: string): string | null {
    const u = this.route(url);
    const line = this.jar().line(u.host, u.pathname + u.search, Date.now());
    return line === null ? null : decoder.decode(line).slice("Cookie: ".length).trimEnd();
  }

  protected store(u: URL, lines: readonly string[]): void {
    this.jar().set(lines, u.host, u.pathname, Date.now());
  }
}

/** `http.cookieJar()`: the VU's jar, over the session's. */
export function cookieJar(): JarView {
  const s = () => {
    const s = current()?.s;
    if (s === undefined) throw new Error("http.cookieJar() is used outside an iteration");
    return s;
  };
  return new JarView(() => jarOf(s()), (url) => new URL(s().route(url, true)));
}

export class CookieJar extends JarView {
  constructor() {
    // Secure cookies are sent over either scheme: the run's target may be plain where the script says https.
    const jar = new Jar(true);
    super(() => jar);
  }

  /** Sets a request's `Cookie` to `given` (params.cookies') and this jar's cookies for `url` after it. */
  addCookies(url: string, headers: Record<string, string>, given: string | undefined): void {
    const own = this.cookieHeader(url);
    const line = own === null ? given : given === undefined ? own : `${given}; ${own}`;
    if (line === undefined) delete headers["Cookie"];
    else headers["Cookie"] = line;
  }

  keep(url: string, setCookies: readonly string[]): void {
    this.store(new URL(url), setCookies);
  }
}

/** k6's cookie as a `Set-Cookie` line; without a path, the folder of the URL's (as k6's Go jar). */
function setCookieLine(name: string, value: string, o: CookieOptions): string {
  let line = `${name}=${value}`;
  if (o.path !== undefined) line += `; Path=${o.path}`;
  if (o.domain !== undefined) line += `; Domain=${o.domain}`;
  if (o.expires !== undefined) line += `; Expires=${o.expires}`;
  // As Go's cookie: a max_age of 0 is none (a session cookie), below 0 an expiry.
  if (o.max_age) line += `; Max-Age=${o.max_age}`;
  if (o.secure) line += "; Secure";
  if (o.http_only) line += "; HttpOnly";
  return line;
}
