// args:
// A request's own responseCallback: the 404 this call expects is no failure; the rest keep the default.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  iterations: 4,
  thresholds: { http_req_failed: ["rate==0"], "http_reqs{expected_response:true}": ["count==8"] },
};

const notFoundOk = http.expectedStatuses(200, 404);

export default function () {
  const missing = http.get(`${BASE}/status/404`, { responseCallback: notFoundOk });
  check(missing, { "missing is 404": (r) => r.status === 404 });
  http.get(`${BASE}/get`);
}
