// args: -e VUS=5 --env VUS=2 -e ITERS=4
// env: K6_ITERATIONS=6 K6_VUS=3
// k6's own variables beside -e and --env: the last -e wins for __ENV, K6_VUS and K6_ITERATIONS over options.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";

export const options = {
  vus: Number(__ENV.VUS),
  iterations: Number(__ENV.ITERS),
  thresholds: {
    http_reqs: ["count==6"],
    vus_max: ["value==3"],
    "http_reqs{vus:2}": ["count==6"],
  },
  tags: { vus: __ENV.VUS },
};

export default function () {
  http.get(`${BASE}/get?k6vus=${__ENV.K6_VUS}`);
}
