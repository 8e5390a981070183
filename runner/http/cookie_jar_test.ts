import { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  CookieJar,
  defaultPath,
  domainMatches,
  MAX_COOKIE_BYTES,
  MAX_COOKIES,
  MAX_COOKIES_PER_DOMAIN,
  pathMatches,
  requestHostOf,
} from "./cookie_jar.ts";

const text = (line: Uint8Array | null) => line === null ? null : new TextDecoder().decode(line);
const NOW = Date.parse("2026-01-01T00:00:00Z");

Deno.test("cookie jar: Expires and Max-Age, a past date deletes, a later Set-Cookie replaces", () => {
  const jar = new CookieJar(false);
  const H = "shop.example";
  jar.set(
    [
      "a=1; Expires=Thu, 01 Jan 2026 00:00:10 GMT",
      "b=2; Max-Age=5; Expires=Thu, 01 Jan 2026 00:00:01 GMT",
      "c=3",
    ],
    H,
    "/",
    NOW,
  );
  assertEquals(text(jar.line(H, "/", NOW)), "Cookie: a=1; b=2; c=3\r\n");
  assertEquals(text(jar.line(H, "/", NOW + 2_000)), "Cookie: a=1; b=2; c=3\r\n"); // Max-Age wins over Expires
  assertEquals(text(jar.line(H, "/", NOW + 6_000)), "Cookie: a=1; c=3\r\n");
  assertEquals(text(jar.line(H, "/", NOW + 11_000)), "Cookie: c=3\r\n");
  jar.set(["c=4"], H, "/", NOW + 11_000);
  assertEquals(text(jar.line(H, "/", NOW + 11_000)), "Cookie: c=4\r\n");
  jar.set(["c=gone; Expires=Wed, 31 Dec 2025 00:00:00 GMT"], H, "/", NOW + 11_000);
  assertEquals([jar.size, jar.line(H, "/", NOW + 11_000)], [0, null]);
});

Deno.test("cookie jar: Path scoping, Secure over https only, Domain against the target host", () => {
  const http = new CookieJar(false);
  const https = new CookieJar(true);
  const H = "api.shop.example";
  const set = ["p=1; Path=/account", "s=2; Secure", "d=3; Domain=shop.example", "x=4; Domain=other.example"];
  for (const jar of [http, https]) jar.set(set, H, "/login/form", NOW);
  // Without a Path, a cookie's path is the folder of the request that set it: /login.
  assertEquals(text(http.line(H, "/account/me", NOW)), "Cookie: p=1\r\n");
  assertEquals(text(http.line(H, "/accounts", NOW)), null);
  assertEquals(text(http.line(H, "/login/x", NOW)), "Cookie: d=3\r\n");
  assertEquals(text(https.line(H, "/login/x", NOW)), "Cookie: s=2; d=3\r\n");
  assertEquals(text(https.line(H, "/account", NOW)), "Cookie: p=1\r\n");
  assertEquals([defaultPath("/a/b?x=/c"), defaultPath("/a"), defaultPath("/")], ["/a", "/", "/"]);
  assertEquals([pathMatches("/a/b", "/a"), pathMatches("/ab", "/a"), pathMatches("/a/", "/a/")], [
    true,
    false,
    true,
  ]);
  assertEquals([domainMatches("127.0.0.1", "0.0.1"), domainMatches("a.b.c", ".B.c")], [false, true]);
});

Deno.test("cookie jar: scoped by the request host; host-only cookies stay on it, Domain ones reach below", () => {
  const jar = new CookieJar(false);
  jar.set(["only=1", "wide=2; Domain=.A.test", "other=3; Domain=b.test"], "a.test:8080", "/", NOW);
  assertEquals(jar.size, 2);
  assertEquals(text(jar.line("a.test", "/", NOW)), "Cookie: only=1; wide=2\r\n");
  assertEquals(text(jar.line("api.a.test:443", "/", NOW)), "Cookie: wide=2\r\n");
  assertEquals([jar.line("b.test", "/", NOW), jar.line("xa.test", "/", NOW)], [null, null]);
  // The same name and path on another host is another cookie; on the same domain it replaces.
  jar.set(["only=9"], "b.test", "/", NOW);
  jar.set(["wide=5; Domain=a.test"], "api.a.test", "/", NOW);
  assertEquals(text(jar.line("A.TEST", "/", NOW)), "Cookie: only=1; wide=5\r\n");
  assertEquals(text(jar.line("b.test", "/", NOW)), "Cookie: only=9\r\n");
  // No public-suffix list: a single label is refused as a Domain unless it is the host itself.
  jar.set(["tld=1; Domain=test", "top=1; Domain=.TEST"], "a.test", "/", NOW);
  jar.set(["local=1; Domain=localhost"], "localhost:8080", "/", NOW);
  assertEquals([text(jar.line("c.test", "/", NOW)), text(jar.line("localhost", "/", NOW))], [
    null,
    "Cookie: local=1\r\n",
  ]);
  assertEquals(
    ["A.test:80", "[::1]:8443", "[::1]", "127.0.0.1"].map(requestHostOf),
    ["a.test", "::1", "::1", "127.0.0.1"],
  );
});

Deno.test("cookie jar: at most 50 per domain and 3,000 in all, the least recently set evicted; 4 KiB per cookie", () => {
  const jar = new CookieJar(false);
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, k) => `${prefix}${k}=1`);
  jar.set(names(2_000, "a"), "a.test", "/", NOW);
  assertEquals(jar.size, MAX_COOKIES_PER_DOMAIN);
  const line = text(jar.line("a.test", "/", NOW))!;
  assertEquals(line.startsWith("Cookie: a1950=1; "), true);
  assertEquals(line.endsWith("; a1999=1\r\n"), true);
  // Setting an old name again makes it the most recent: the next eviction takes another.
  jar.set(["a1950=2", "new=1"], "a.test", "/", NOW);
  assertEquals(text(jar.line("a.test", "/", NOW))!.includes("a1950=2"), true);
  assertEquals(text(jar.line("a.test", "/", NOW))!.includes("a1951=1"), false);
  for (let d = 0; d < 100; d++) jar.set(names(50, "x"), `h${d}.test`, "/", NOW);
  assertEquals(jar.size, MAX_COOKIES);
  assertEquals([jar.line("a.test", "/", NOW), jar.line("h0.test", "/", NOW)], [null, null]);
  assertEquals(text(jar.line("h99.test", "/", NOW))!.split("; ").length, 50);
  jar.set([`big=${"v".repeat(MAX_COOKIE_BYTES)}`], "big.test", "/", NOW);
  assertEquals(jar.line("big.test", "/", NOW), null);
});

Deno.test("cookie jar: a cookie whose name or value holds a control character is ignored, as browsers do", () => {
  const jar = new CookieJar(false);
  const H = "shop.example";
  // A bare CR, a CR LF (an HTTP/2 field value may carry one), NUL, DEL; a tab is a header value's own.
  jar.set(
    ["a\r\nb=v", "c=v\r\nX-Injected: 1", "d=v\rX: 1", "e=\u0000", "f=\u007f", "ok=1"],
    H,
    "/",
    NOW,
  );
  assertEquals(text(jar.line(H, "/", NOW)), "Cookie: ok=1\r\n");
});
