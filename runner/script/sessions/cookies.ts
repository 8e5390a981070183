/**
 * @module
 * `s.cookies`: the session's cookie jar as a script reads and sets it, for the target's host at path `/`.
 */
import type { CookieJar } from "../../http/cookie_jar.ts";
import type { Session, SessionCookies } from "../session.ts";

const decoder = new TextDecoder();
const SESSION_JAR = Symbol.for("loadlab.cookieJar");
type JarOf = (adopt?: CookieJar) => CookieJar;

/** Session `s`'s jar, made if none (`adopt`: this one from now on), for a runtime's jar API (k6's). */
export const jarOf = (s: Session, adopt?: CookieJar): CookieJar =>
  (s.cookies as { [SESSION_JAR]?: JarOf })[SESSION_JAR]!(adopt);

/** The script's view of the jar `jar()` for `host` (`jarOrNew` when it sets one). */
export function sessionCookies(
  host: string,
  jar: () => CookieJar | null,
  jarOrNew: JarOf,
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
    [SESSION_JAR]: jarOrNew,
  } as SessionCookies;
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
