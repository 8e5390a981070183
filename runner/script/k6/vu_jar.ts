/**
 * @module
 * k6's `http.cookieJar()` for converted scripts: the VU's jar is the session's own (`s.cookies`), set and
 * read by name and cleared; with `noCookiesReset` a cookie set here is carried to the VU's next iteration
 * as the ones its responses set are. A jar of its own (`new http.CookieJar()`) is not supported.
 */
import { current, keepCookies } from "./runtime.ts";

/** The VU's cookie jar (the session's): set, read by name, clear. */
export function cookieJar() {
  const jar = () => {
    const s = current()?.s;
    if (s === undefined) throw new Error("http.cookieJar() is used outside an iteration");
    return s.cookies;
  };
  return {
    set: (_url: string, name: string, value: string) => {
      jar().set(name, value);
      keepCookies(current()!.s.vu, [`${name}=${value}`]);
    },
    cookiesForURL: (_url: string) =>
      new Proxy({}, {
        get: (_t, name) => {
          const value = typeof name === "string" ? jar().get(name) : undefined;
          return value === undefined ? undefined : [value];
        },
      }),
    clear: (_url?: string) => jar().clear(),
    delete: (_url: string, _name: string) => {
      throw new Error("jar.delete is not supported; jar.clear() forgets every cookie");
    },
  };
}
