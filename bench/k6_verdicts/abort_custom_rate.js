// args:
// abortOnFail with delayAbortEval on a team's own error Rate: the test stops once errors pass 10%.
import http from "k6/http";
import { Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const errors = new Rate("errors");

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: {
    errors: [{ threshold: "rate<0.1", abortOnFail: true, delayAbortEval: "1s" }],
    http_req_duration: ["p(95)<3000"],
  },
};

export default function () {
  const res = http.get(`${BASE}/status/503`);
  errors.add(res.status !== 200);
}
