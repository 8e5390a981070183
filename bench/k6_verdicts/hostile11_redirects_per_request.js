// args: -u 1 -i 3
// redirects: 0 on one request sees the 302; the default follows; options.maxRedirects caps another.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  maxRedirects: 5,
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{status:302}": ["count==6"],
    "http_reqs{status:200}": ["count==3"],
    http_reqs: ["count==9"],
  },
};

export default function () {
  const held = http.get(`${BASE}/redirect/2`, { redirects: 0 });
  check(held, {
    "302 held": (r) => r.status === 302,
    "location kept": (r) => r.headers["Location"] === "/redirect/1",
  });
  const followed = http.get(`${BASE}/redirect/1`);
  check(followed, { "followed to /get": (r) => r.status === 200 && r.url.endsWith("/get") });
}
