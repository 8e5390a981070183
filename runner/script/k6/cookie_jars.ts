/**
 * @module
 * k6's cookie jars. `http.cookieJar()` is the VU's: the session's own (`s.cookies`), which sets a cookie on
 * every path of the target, so `path` does not narrow it. `new http.CookieJar()` is the script's own
 * (`params.jar`), keyed by the URL's host; as in k6, a request with its own jar leaves the VU's untouched.
 */
import { CookieJar as Jar, domainMatches } from "../../http/cookie_jar.ts";
import { current, keepCookies } from "./runtime.ts";

interface CookieOptions {
  domain?: string;
  path?: string;
  expires?: string;
  max_age?: number;
  secure?: boolean;
  http_only?: boolean;
}

const decoder = new TextDecoder();

function sessionOf() {
  const s = current()?.s;
  if (s === undefined) throw new Error("http.cookieJar() is used outside an iteration");
  return s;
}

/** Sets (or, with an empty value and Max-Age 0, deletes) cookie `name` in the VU's jar. */
function setCookie(name: string, value: string, expired: boolean): void {
  const s = sessionOf();
  // The session's jar takes `name=value; Path=/`: a value ending in "; Max-Age=0" makes it an expiry.
  s.cookies.set(name, expired ? "; Max-Age=0" : value);
  keepCookies(s.vu, [expired ? `${name}=; Max-Age=0` : `${name}=${value}`]);
}

/** `http.cookieJar()`: the VU's jar, over the session's cookies. */
export function cookieJar() {
  return {
    set: (url: string, name: string, value: string, options?: CookieOptions) => {
      if (options?.domain !== undefined && !domainMatches(new URL(url).hostname, options.domain)) return;
      setCookie(name, value, options?.max_age !== undefined && options.max_age <= 0);
    },
    cookiesForURL: (_url: string) =>
      new Proxy({}, {
        get: (_t, name) => {
          const value = typeof name === "string" ? sessionOf().cookies.get(name) : undefined;
          return value === undefined ? undefined : [value];
        },
      }),
    clear: (_url?: string) => sessionOf().cookies.clear(),
    delete: (_url: string, name: string) => setCookie(name, "", true),
  };
}

export class CookieJar {
  // Secure cookies are sent over either scheme: the run's target may be plain where the script says https.
  readonly #jar = new Jar(true);

  /** Sets cookie `name` as a response from `url` would; a domain that `url`'s host is not in drops it. */
  set(url: string, name: string, value: string, options: CookieOptions = {}): void {
    const u = new URL(url);
    if (options.domain !== undefined && !domainMatches(u.hostname, options.domain)) return;
    this.#jar.set([setCookieLine(name, value, options)], u.host, u.pathname, Date.now());
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

  delete(url: string, name: string): void {
    const u = new URL(url);
    this.#jar.set([`${name}=; Max-Age=0; Path=/`], u.host, u.pathname, Date.now());
  }

  clear(url: string): void {
    for (const name of Object.keys(this.cookiesForURL(url))) this.delete(url, name);
  }

  /** The `Cookie` value for a request to `url` (without the field name), or null when none applies. */
  cookieHeader(url: string): string | null {
    const u = new URL(url);
    const line = this.#jar.line(u.host, u.pathname + u.search, Date.now());
    return line === null ? null : decoder.decode(line).slice("Cookie: ".length).trimEnd();
  }

  /** Sets a request's `Cookie` to `given` (params.cookies') and this jar's cookies for `url` after it. */
  addCookies(url: string, headers: Record<string, string>, given: string | undefined): void {
    const own = this.cookieHeader(url);
    const line = own === null ? given : given === undefined ? own : `${given}; ${own}`;
    if (line === undefined) delete headers["Cookie"];
    else headers["Cookie"] = line;
  }

  keep(url: string, setCookies: readonly string[]): void {
    const u = new URL(url);
    this.#jar.set(setCookies, u.host, u.pathname, Date.now());
  }
}

function setCookieLine(name: string, value: string, o: CookieOptions): string {
  let line = `${name}=${value}; Path=${o.path ?? "/"}`;
  if (o.domain !== undefined) line += `; Domain=${o.domain}`;
  if (o.expires !== undefined) line += `; Expires=${o.expires}`;
  if (o.max_age !== undefined) line += `; Max-Age=${o.max_age}`;
  if (o.secure) line += "; Secure";
  if (o.http_only) line += "; HttpOnly";
  return line;
}
