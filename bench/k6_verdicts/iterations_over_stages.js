// args: -i 4
// `-i` on the command line over a script whose options name stages: k6 runs 4 iterations on one VU and the
// stages do not run.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  stages: [
    { duration: "5s", target: 5 },
    { duration: "5s", target: 0 },
  ],
  thresholds: { iterations: ["count==4"], vus_max: ["value==1"], http_reqs: ["count==4"] },
};

export default function () {
  http.get(`${BASE}/json`);
}
