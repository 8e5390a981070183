// args: -i 3
// A login redirect checked, not followed (redirects: 0 per request, maxRedirects as the default).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  maxRedirects: 1,
  thresholds: {
    "http_reqs{status:302}": ["count==6"],
    "http_reqs{name:follow}": ["count==3"],
    http_req_failed: ["rate==0"],
    checks: ["rate==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/redirect/2`, { redirects: 0 });
  check(res, { "302 kept": (r) => r.status === 302 && r.headers.Location === "/redirect/1" });
  const far = http.get(`${BASE}/redirect/2`, { tags: { name: "follow" } });
  check(far, { "stopped after one hop": (r) => r.status === 302 });
}
