// args:
// gracefulStop 0s cuts the iteration in flight at the duration's end: its late request never counts.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  scenarios: { cut: { executor: "constant-vus", vus: 1, duration: "1s", gracefulStop: "0s" } },
  thresholds: { http_reqs: ["count>=2", "count<=4"], iterations: ["count<=2"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.6);
  http.get(`${BASE}/json`);
}
