// args:
// shared-iterations: 12 iterations shared by 3 VUs, counted exactly, with a maxDuration.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    shared: { executor: "shared-iterations", vus: 3, iterations: 12, maxDuration: "30s" },
  },
  thresholds: { iterations: ["count==12"], http_reqs: ["count==12"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/json`), { "json is 200": (r) => r.status === 200 });
}
