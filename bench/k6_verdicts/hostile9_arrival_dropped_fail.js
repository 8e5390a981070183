// A constant-arrival-rate far beyond its one VU on a slow path: dropped_iterations fails its threshold.
import http from "k6/http";

export const options = {
  scenarios: {
    spike: {
      executor: "constant-arrival-rate",
      rate: 20,
      timeUnit: "1s",
      duration: "2s",
      preAllocatedVUs: 1,
      maxVUs: 1,
    },
  },
  thresholds: { dropped_iterations: ["count<1"], vus_max: ["value==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/delay/0.5");
}
