/**
 * @module
 * k6's `http.cookieJar()`: the VU's jar is the session's own (`s.cookies`). It holds a cookie set here on
 * every path of the target, so a `path` option does not narrow it.
 */
import { current, keepCookies } from "./runtime.ts";
import { domainMatches } from "../../http/cookie_jar.ts";
import type { CookieOptions } from "./local_jar.ts";

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
