// counts: by duration
// shared-iterations asked for more iterations than maxDuration lets run: the scenario ends at its
// maxDuration (plus gracefulStop) with the rest never started.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    cut: { executor: "shared-iterations", vus: 2, iterations: 500, maxDuration: "2s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count<500", "count>=8"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/delay/0.2`), { "ok": (r) => r.status === 200 });
}
