// args: -u 4
// -u alone beside the script's scenarios: VUs are not how the load runs, so the scenarios run as written.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: { pair: { executor: "per-vu-iterations", vus: 2, iterations: 2 } },
  thresholds: { iterations: ["count==4"], "http_reqs{scenario:pair}": ["count==4"] },
};

export default function () {
  http.get(`${BASE}/get`);
}
