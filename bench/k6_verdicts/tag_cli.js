// args: -i 4 --tag env=ci
// A run tag from --tag: a threshold on it holds, one on another value has no samples and fails.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_req_duration{env:ci}": ["max>=0"],
    "http_reqs{env:prod}": ["count>0"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
}
