// args: -u 1 -i 3
// A request's own responseCallback: null leaves it out of http_req_failed; the others are judged.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_failed: ["rate==0.5"],
    http_reqs: ["count==9"],
    "http_reqs{expected_response:true}": ["count==3"],
  },
};

export default function () {
  const probe = http.get(`${BASE}/status/503`, { responseCallback: null });
  check(probe, { "probe 503": (r) => r.status === 503 });
  http.get(`${BASE}/get`);
  http.get(`${BASE}/status/500`);
}
