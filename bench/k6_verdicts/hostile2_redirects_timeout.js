// args: -i 2
// redirects: 0 in options (a 302 is the response) with one request's own redirects over it, and a request
// whose timeout param is hit (status 0, error code 1050) counted as failed.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  maxRedirects: 0,
  thresholds: { http_req_failed: ["rate<0.3"], checks: ["rate==1"], "http_reqs{name:slow}": ["count==2"] },
};

export default function () {
  const r1 = http.get(`${BASE}/redirect/2`, { redirects: 0 });
  check(r1, { "302 kept": (r) => r.status === 302, "location": (r) => r.headers.Location === "/redirect/1" });
  const r2 = http.get(`${BASE}/redirect/2`, { redirects: 3 });
  check(r2, { "followed": (r) => r.status === 200 && r.url === `${BASE}/get` });
  const r3 = http.get(`${BASE}/delay/2`, { timeout: "300ms", tags: { name: "slow" } });
  check(r3, {
    "timed out": (r) => r.status === 0,
    "code 1050": (r) => r.error_code === 1050,
    "error text": (r) => r.error.includes("timeout"),
  });
}
