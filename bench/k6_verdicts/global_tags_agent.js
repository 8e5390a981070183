// args: -i 4
// options.tags on every request, userAgent, noConnectionReuse, and a request's own tag over a global one.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  tags: { team: "web", env: "staging" },
  userAgent: "team-load/1.0",
  noConnectionReuse: true,
  thresholds: {
    "http_reqs{team:web}": ["count==8"],
    "http_reqs{env:prod}": ["count==4"],
    "http_reqs{env:staging}": ["count==4"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/get`);
  check(res, { "user agent sent": (r) => r.json("headers.User-Agent") === "team-load/1.0" });
  http.get(`${BASE}/json`, { tags: { env: "prod" } });
}
