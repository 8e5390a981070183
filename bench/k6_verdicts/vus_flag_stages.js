// args: --vus 3
// --vus on the command line beside stages in options: k6 starts the ramp from the flag's VUs.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  stages: [
    { duration: "1s", target: 2 },
    { duration: "1s", target: 0 },
  ],
  thresholds: { vus_max: ["value>=3"], http_req_failed: ["rate==0"] },
};

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.2);
}
