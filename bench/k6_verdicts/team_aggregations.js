// args: -u 2 -i 8
// Thresholds on every built-in aggregation teams reach for: med, count, rate, p(99.9), data_*, vus, vus_max.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: ["med<5000", "p(99.9)<5000", "max<10000", "min>=0"],
    http_reqs: ["count==8", "rate>0"],
    iterations: ["count==8", "rate>0"],
    iteration_duration: ["avg<5000"],
    data_received: ["count>1000", "rate>0"],
    data_sent: ["count>100"],
    vus: ["value>=0"],
    vus_max: ["value==2"],
    http_req_failed: ["rate<0.01"],
  },
};

export default function () {
  http.get(`${BASE}/bytes/200`);
}
