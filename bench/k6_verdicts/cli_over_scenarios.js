// args: -u 2 -i 6
// -u and -i on the command line replace the script's scenarios (k6: one shared-iterations scenario).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    soak: { executor: "constant-vus", vus: 5, duration: "30s" },
  },
  thresholds: { http_reqs: ["count==6"], iterations: ["count==6"], vus_max: ["value==2"] },
};

export default function () {
  http.get(`${BASE}/json`);
}
