// args:
// counts: by duration
// per-vu-iterations asked for far more iterations than maxDuration allows: cut at 1 s, gracefulStop 0.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    cut: { executor: "per-vu-iterations", vus: 2, iterations: 100, maxDuration: "1s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count<20", "count>1"], checks: ["rate==1"], iteration_duration: ["min>=250"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/delay/0.3"), { "answered": (r) => r.status === 200 });
}
