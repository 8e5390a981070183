// env: K6_VUS=4
// K6_VUS beside the script's scenarios: VUs are not an execution shortcut, the scenarios run as written.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: { two: { executor: "per-vu-iterations", vus: 2, iterations: 3 } },
  thresholds: { iterations: ["count==6"], vus_max: ["value==2"] },
};

export default function () {
  http.get(`${BASE}/get`);
}
