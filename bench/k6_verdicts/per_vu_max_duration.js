// args:
// per-vu-iterations cut by maxDuration: the VUs cannot finish their iterations, the thresholds see it.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  scenarios: {
    capped: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 50,
      maxDuration: "2s",
      gracefulStop: "0s",
    },
  },
  thresholds: {
    iterations: ["count<20"],
    http_reqs: ["count>2"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  sleep(0.25);
}
