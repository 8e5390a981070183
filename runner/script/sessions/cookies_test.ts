import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CookieJar } from "../../http/cookie_jar.ts";
import { sessionCookies } from "./cookies.ts";

Deno.test("s.cookies: set and get for the target's host; clear() forgets every cookie", () => {
  const jar = new CookieJar(false);
  const cookies = sessionCookies("127.0.0.1:8080", () => jar, () => jar);
  cookies.set("session", "abc");
  assertEquals(cookies.get("session"), "abc");
  cookies.clear();
  assertEquals([cookies.get("session"), jar.line("127.0.0.1:8080", "/", Date.now())], [undefined, null]);
});
