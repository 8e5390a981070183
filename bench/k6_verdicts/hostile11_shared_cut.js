// args:
// counts: by duration
// shared-iterations cut by maxDuration: the iterations never started are k6's dropped_iterations.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    batch: { executor: "shared-iterations", vus: 2, iterations: 500, maxDuration: "1500ms" },
  },
  thresholds: { iterations: ["count<500"], dropped_iterations: ["count>0"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.3);
}
