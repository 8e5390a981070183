// args: -i 15
// env: K6_DURATION=1s
// K6_DURATION in the environment, --iterations on the command line: k6 runs the 15 iterations to the end
// (the variable's duration is replaced, not a bound).
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { iterations: ["count==15"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
