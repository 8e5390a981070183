/**
 * @module
 * `s.cookies`: the session's cookie jar as a script reads and sets it, for the target's host at path `/`.
 */
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { SessionCookies } from "../session.ts";

const decoder = new TextDecoder();
/** The session's jar, made if it has none, by a key a runtime reaches it by (k6's VU jar). */
export const SESSION_JAR = Symbol.for("loadlab.cookieJar");

/** The script's view of the jar `jar()` for `host` (`jarOrNew` when it sets one). */
export function sessionCookies(
  host: string,
  jar: () => CookieJar | null,
  jarOrNew: () => CookieJar,
): SessionCookies {
  const header = (path: string) => {
    const line = jar()?.line(host, path, Date.now());
    return line ? decoder.decode(line).slice("Cookie: ".length).trim() : null;
  };
  return {
    get: (name) => {
      for (const pair of header("/")?.split("; ") ?? []) {
        const eq = pair.indexOf("=");
        if (pair.slice(0, eq) === name) return pair.slice(eq + 1);
      }
      return undefined;
    },
    header,
    set: (name, value) => {
      const problem = cookieProblem(name, value);
      if (problem !== null) {
        const shown = typeof name === "string" ? JSON.stringify(name.slice(0, 60)) : typeof name;
        throw new TypeError(`s.cookies.set(${shown}, ...): ${problem}`);
      }
      jarOrNew().set([`${name}=${value}; Path=/`], host, "/", Date.now());
    },
    clear: () => jar()?.clear(),
  };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What ends the Cookie line a value is sent on: control characters but tab. */
// deno-lint-ignore no-control-regex -- matching control characters is the point
const LINE_BREAK = /[\x00-\x08\x0a-\x1f\x7f]/;

/** Why `name=value` cannot be sent (a CR LF would start a header of its own), or null. */
function cookieProblem(name: unknown, value: unknown): string | null {
  if (typeof name !== "string" || !TOKEN.test(name)) {
    return "a cookie's name must be a token: letters, digits and !#$%&'*+-.^_`|~, e.g. session_id";
  }
  if (LINE_BREAK.test(String(value))) {
    return "a cookie's value must be text without control characters (CR, LF, NUL)";
  }
  return null;
}

/** The name and value a `Set-Cookie` line sets (trimmed), or null when it names none. */
export function setCookiePair(line: string): [name: string, value: string] | null {
  const pair = line.split(";", 1)[0], eq = pair.indexOf("=");
  return eq <= 0 ? null : [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
}
