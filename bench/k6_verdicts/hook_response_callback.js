// args: -i 2
// setup() and teardown() each send a request whose own responseCallback expects its 400.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const gone = { tags: { name: "cleanup" }, responseCallback: http.expectedStatuses(400) };

export const options = {
  thresholds: {
    http_req_failed: ["rate==0"],
    "http_req_failed{name:cleanup}": ["rate==0"],
    "http_reqs{expected_response:true}": ["count==4"],
  },
};

export function setup() {
  http.get(`${BASE}/validate?id=before`, gone);
}

export default function () {
  http.get(`${BASE}/get`);
}

export function teardown() {
  http.get(`${BASE}/validate?id=after`, gone);
}
