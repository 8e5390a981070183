import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { CookieJar, defaultPath, domainMatches, pathMatches } from "./cookie_jar.ts";

const text = (line: Uint8Array | null) => line === null ? null : new TextDecoder().decode(line);
const NOW = Date.parse("2026-01-01T00:00:00Z");

Deno.test("cookie jar: Expires and Max-Age, a past date deletes, a later Set-Cookie replaces", () => {
  const jar = new CookieJar("shop.example", false);
  jar.set(
    [
      "a=1; Expires=Thu, 01 Jan 2026 00:00:10 GMT",
      "b=2; Max-Age=5; Expires=Thu, 01 Jan 2026 00:00:01 GMT",
      "c=3",
    ],
    "/",
    NOW,
  );
  assertEquals(text(jar.line("/", NOW)), "Cookie: a=1; b=2; c=3\r\n");
  assertEquals(text(jar.line("/", NOW + 2_000)), "Cookie: a=1; b=2; c=3\r\n"); // Max-Age wins over Expires
  assertEquals(text(jar.line("/", NOW + 6_000)), "Cookie: a=1; c=3\r\n");
  assertEquals(text(jar.line("/", NOW + 11_000)), "Cookie: c=3\r\n");
  jar.set(["c=4"], "/", NOW + 11_000);
  assertEquals(text(jar.line("/", NOW + 11_000)), "Cookie: c=4\r\n");
  jar.set(["c=gone; Expires=Wed, 31 Dec 2025 00:00:00 GMT"], "/", NOW + 11_000);
  assertEquals([jar.size, jar.line("/", NOW + 11_000)], [0, null]);
});

Deno.test("cookie jar: Path scoping, Secure over https only, Domain against the target host", () => {
  const http = new CookieJar("api.shop.example", false);
  const https = new CookieJar("api.shop.example", true);
  const set = ["p=1; Path=/account", "s=2; Secure", "d=3; Domain=shop.example", "x=4; Domain=other.example"];
  for (const jar of [http, https]) jar.set(set, "/login/form", NOW);
  // Without a Path, a cookie's path is the folder of the request that set it: /login.
  assertEquals(text(http.line("/account/me", NOW)), "Cookie: p=1\r\n");
  assertEquals(text(http.line("/accounts", NOW)), null);
  assertEquals(text(http.line("/login/x", NOW)), "Cookie: d=3\r\n");
  assertEquals(text(https.line("/login/x", NOW)), "Cookie: s=2; d=3\r\n");
  assertEquals(text(https.line("/account", NOW)), "Cookie: p=1\r\n");
  assertEquals([defaultPath("/a/b?x=/c"), defaultPath("/a"), defaultPath("/")], ["/a", "/", "/"]);
  assertEquals([pathMatches("/a/b", "/a"), pathMatches("/ab", "/a"), pathMatches("/a/", "/a/")], [
    true,
    false,
    true,
  ]);
  assertEquals([domainMatches("127.0.0.1", "0.0.1"), domainMatches("a.b.c", ".B.c")], [false, true]);
});
