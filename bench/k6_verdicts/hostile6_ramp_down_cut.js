// Ramping VUs whose long iterations a `gracefulRampDown: "0s"` cuts: k6 counts only whole iterations.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 2,
      stages: [{ duration: "1s", target: 2 }, { duration: "0s", target: 0 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
    },
  },
  thresholds: { iterations: ["count==2"], http_reqs: ["count==4"] },
};

export default function () {
  http.get("http://127.0.0.1:18482/get");
  sleep(0.6);
}
