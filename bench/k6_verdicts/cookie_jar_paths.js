// args: -u 1 -i 2
// The VU's jar by domain and path, as k6's Go jar keeps it: a cookie set without a path takes the folder of
// its URL, requests carry the longest paths first, clear(url) and delete(url, name) reach the URL's folder.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const sent = (path) => http.get(`${BASE}/anything${path}`).json().headers.Cookie ?? "";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  const jar = http.cookieJar();
  jar.set(`${BASE}/`, "root", "1");
  jar.set(`${BASE}/`, "deep", "2", { path: "/anything/a" });
  jar.set(`${BASE}/anything/a/b/page`, "folder", "3");
  check(jar.cookiesForURL(`${BASE}/`), { "root only at /": (c) => Object.keys(c).join() === "root" });
  check(sent("/a/b/x"), { "longest path first": (c) => c === "folder=3; deep=2; root=1" });
  jar.clear(`${BASE}/`);
  check(sent("/a/x"), { "clear keeps a deeper path": (c) => c === "deep=2" });
  jar.delete(`${BASE}/anything/a/x`, "deep");
  jar.delete(`${BASE}/x`, "folder");
  check(jar.cookiesForURL(`${BASE}/anything/a/b/x`), {
    "delete by the URL's folder": (c) => Object.keys(c).join() === "folder",
  });
}
