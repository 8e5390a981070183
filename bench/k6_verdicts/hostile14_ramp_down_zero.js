// args:
// ramping-vus with gracefulRampDown 0s: the VU the ramp removes is cut mid-sleep.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 2,
      stages: [{ duration: "1s", target: 2 }, { duration: "0s", target: 1 }, { duration: "2s", target: 1 }],
      gracefulRampDown: "0s",
      gracefulStop: "5s",
    },
  },
  thresholds: { "http_reqs{scenario:ramp}": ["count==2"], iterations: ["count==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(2.5);
}
