/**
 * @module
 * `s.cookies`: the session's cookie jar as a script reads and sets it, for the target's host at its root
 * path. The jar is the session's (made when first needed: `jarOrNew`); this reads it, never keeps it.
 */
import type { CookieJar } from "../http/cookie_jar.ts";
import type { SessionCookies } from "./session.ts";

const decoder = new TextDecoder();

/** The script's view of the jar `jar()` for `host` (`jarOrNew` when it sets one). */
export function sessionCookies(
  host: string,
  jar: () => CookieJar | null,
  jarOrNew: () => CookieJar,
): SessionCookies {
  return {
    get: (name) => {
      const line = jar()?.line(host, "/", Date.now());
      if (!line) return undefined;
      for (const pair of decoder.decode(line).slice("Cookie: ".length).trim().split("; ")) {
        const eq = pair.indexOf("=");
        if (pair.slice(0, eq) === name) return pair.slice(eq + 1);
      }
      return undefined;
    },
    set: (name, value) => {
      jarOrNew().set([`${name}=${value}; Path=/`], host, "/", Date.now());
    },
    // An empty jar sends what no jar does: nothing (the next Set-Cookie makes one when cookies are on).
    clear: () => {
    },
  };
}
