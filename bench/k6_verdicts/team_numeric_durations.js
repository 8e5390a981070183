// Durations written as numbers (milliseconds in k6's options) in a scenario.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    numbers: { executor: "constant-vus", vus: 1, duration: 1000, gracefulStop: 0 },
  },
  thresholds: { iterations: ["count>3", "count<20"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
