// args: -u 1 -i 2
// maxRedirects in options, redirects: 0 and a count per request; the final URL and status checked.
import http from "k6/http";
import { check } from "k6";

export const options = {
  maxRedirects: 2,
  thresholds: { "http_reqs{hop:none}": ["count==2"], checks: ["rate==1"] },
};

export default function () {
  const stopped = http.get("http://127.0.0.1:18481/redirect/1", { redirects: 0, tags: { hop: "none" } });
  const within = http.get("http://127.0.0.1:18481/redirect/2");
  const beyond = http.get("http://127.0.0.1:18481/redirect/4");
  const perReq = http.get("http://127.0.0.1:18481/redirect/4", { redirects: 5 });
  check(null, {
    "not followed": () => stopped.status === 302 && stopped.headers["Location"] === "/get",
    "followed to get": () => within.status === 200 && within.url.endsWith("/get"),
    "stopped at limit": () => beyond.status === 302,
    "per request limit": () => perReq.status === 200,
  });
}
