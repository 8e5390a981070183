// args: -u 2 -i 6
// Several thresholds on one metric, some crossed, and on submetrics of one tag: each judged apart.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: ["p(95)<5000", "avg<0.001", "max>=0", "med<5000", "p(99.9)<5000"],
    http_reqs: ["count==6", "rate>100000", "count>=1"],
    "http_req_duration{status:200}": ["min>=0", "p(50)>100000"],
    http_req_waiting: ["avg<5000"],
  },
};

export default function () {
  http.get(`${BASE}/get?i=${__ITER}`);
}
