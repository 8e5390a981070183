// args:
// ramping-arrival-rate in iterations per minute (`timeUnit: "1m"`), as a team states business traffic.
import http from "k6/http";
import { check } from "k6";

export const options = {
  scenarios: {
    checkout: {
      executor: "ramping-arrival-rate",
      startRate: 120,
      timeUnit: "1m",
      preAllocatedVUs: 2,
      maxVUs: 4,
      stages: [{ target: 240, duration: "2s" }, { target: 0, duration: "1s" }],
    },
  },
  thresholds: { iterations: ["count>=3", "count<=12"], checks: ["rate==1"], dropped_iterations: ["count<3"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
