// args: -i 3
// One request expects its 404 (a missing item is the answer the test wants), the others keep k6's
// default: http_req_failed counts only the unexpected, and expected_response follows each request's own.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  thresholds: {
    http_req_failed: ["rate<0.4"],
    "http_req_failed{name:gone}": ["rate==0"],
    "http_req_failed{name:broken}": ["rate==1"],
    "http_reqs{expected_response:true}": ["count==6"],
  },
};

export default function () {
  const gone = http.get(`${BASE}/status/404`, {
    tags: { name: "gone" },
    responseCallback: http.expectedStatuses(404),
  });
  check(gone, { "gone is 404": (r) => r.status === 404 });
  http.get(`${BASE}/get`);
  http.get(`${BASE}/status/404`, { tags: { name: "broken" } });
}
