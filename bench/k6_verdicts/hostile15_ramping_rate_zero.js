// args:
// counts: by duration
// ramping-arrival-rate from 0 to 0 through 6/s: iterations only in the middle stage.
import http from "k6/http";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-arrival-rate",
      startRate: 0,
      timeUnit: "1s",
      preAllocatedVUs: 2,
      stages: [{ duration: "1s", target: 0 }, { duration: "1s", target: 6 }, { duration: "1s", target: 0 }],
    },
  },
  thresholds: { iterations: ["count>=2", "count<=8"], dropped_iterations: ["count<3"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
