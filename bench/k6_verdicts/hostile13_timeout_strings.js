// args: -u 1 -i 2
// Request timeouts written as strings ("300ms", "5s") and numbers: the slow one times out (1050).
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_req_failed{name:slow}": ["rate==1"],
    "http_req_failed{name:fast}": ["rate==0"],
    "http_reqs{error_code:1050}": ["count==2"],
  },
};

export default function () {
  const slow = http.get("http://127.0.0.1:18481/delay/2", { timeout: "300ms", tags: { name: "slow" } });
  const fast = http.get("http://127.0.0.1:18481/get", { timeout: "5s", tags: { name: "fast" } });
  http.get("http://127.0.0.1:18481/get", { timeout: 5000, tags: { name: "fast" } });
  check(slow, { "timed out": (r) => r.status === 0 && r.error_code === 1050 });
  check(fast, { "fast ok": (r) => r.status === 200 });
}
