// args: --config data/precedence.json -u 3
// env: K6_ITERATIONS=9
// k6's order of options: the config file, then the script's options, then K6_* variables, then flags.
// The file says 4 VUs and 20 iterations, the script 2 VUs and 6, K6_ITERATIONS 9, `-u` 3.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  iterations: 6,
  thresholds: { iterations: ["count==9"], vus_max: ["value==3"] },
};

export default function () {
  http.get(`${BASE}/json`);
}
