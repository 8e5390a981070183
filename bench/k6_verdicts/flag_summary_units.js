// args: -i 3 --summary-time-unit s --summary-trend-stats avg,med,p(99.9),count
// k6's --summary-time-unit and --summary-trend-stats flags; thresholds stay in ms.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: ["avg<5000", "med<5000", "p(99.9)<5000"],
    iteration_duration: ["avg>0"],
  },
};

export default function () {
  http.get(`${BASE}/get`);
}
