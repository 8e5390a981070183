// args: -u 1 -i 3
// k6's documentation's redirects: options.maxRedirects for the run, a request's own `redirects`, a chain
// longer than allowed, and what the response says after following (url, status, the hops counted).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  maxRedirects: 2,
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{name:chain}": ["count==9"],
    http_reqs: ["count==24"],
  },
};

export default function () {
  const followed = http.get(`${BASE}/redirect/2`, { tags: { name: "chain" } });
  check(followed, {
    "followed to the end": (r) => r.status === 200 && r.url === `${BASE}/get`,
  });
  const tooMany = http.get(`${BASE}/redirect/4`);
  check(tooMany, {
    "stopped after maxRedirects": (r) => r.status === 302 && r.url === `${BASE}/redirect/2`,
  });
  const own = http.get(`${BASE}/redirect/1`, { redirects: 0 });
  check(own, { "not followed": (r) => r.status === 302 && r.headers.Location === "/get" });
}
