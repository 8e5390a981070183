// args: -i 2
// res.cookies read after a login sets two cookies with attributes (HttpOnly, Max-Age, Path), and the
// Set-Cookie header read as one field.
import http from "k6/http";
import { check } from "k6";

export default function () {
  const res = http.get(
    "http://127.0.0.1:18481/response-headers?Set-Cookie=sid%3Dabc%3B%20Path%3D%2F%3B%20HttpOnly%3B%20Max-Age%3D60&X-Id=7",
  );
  console.log(`cookies: ${JSON.stringify(res.cookies)} header: ${JSON.stringify(res.headers["Set-Cookie"])}`);
  check(res, {
    "sid value": (r) => r.cookies.sid && r.cookies.sid[0].value === "abc",
    "sid httpOnly": (r) => r.cookies.sid && r.cookies.sid[0].http_only === true,
    "sid path": (r) => r.cookies.sid && r.cookies.sid[0].path === "/",
    "sid max age": (r) => r.cookies.sid && r.cookies.sid[0].max_age === 60,
    "header text": (r) => r.headers["Set-Cookie"] === "sid=abc; Path=/; HttpOnly; Max-Age=60",
  });
  const jar = http.cookieJar();
  check(jar.cookiesForURL("http://127.0.0.1:18481/"), { "jar kept sid": (c) => c.sid && c.sid[0] === "abc" });
}
