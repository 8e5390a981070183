// args:
// counts: by duration
// ramping-vus whose stages start and end at 0: a hold at zero, a ramp up, a ramp down to none.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 0,
      stages: [{ duration: "1s", target: 0 }, { duration: "1s", target: 2 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
    },
  },
  thresholds: { http_reqs: ["count>0"], vus_max: ["value==2"], vus: ["value<=2"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.2);
}
