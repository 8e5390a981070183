// args: -i 3
// A dependency that is down: each request to a closed port is refused (k6's status 0, error_code 1212).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const DOWN = __ENV.DOWN_URL || "http://127.0.0.1:18488";

export const options = {
  thresholds: {
    "http_reqs{error_code:1212}": ["count==3"],
    "http_req_failed{name:down}": ["rate==1"],
    "http_req_failed{name:up}": ["rate==0"],
    http_req_failed: ["rate<0.6"],
  },
};

export default function () {
  http.get(`${BASE}/json`, { tags: { name: "up" } });
  const res = http.get(`${DOWN}/health`, { tags: { name: "down" } });
  check(res, {
    "refused has status 0": (r) => r.status === 0,
    "refused has code 1212": (r) => r.error_code === 1212,
    "refused has an error": (r) => r.error !== "",
  });
}
