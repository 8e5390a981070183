// args: -i 15
// The script says one second, the command line 15 iterations: k6 runs all 15, the duration dropped.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { duration: "1s", thresholds: { iterations: ["count==15"] } };

export default function () {
  http.get(`${BASE}/get`);
  sleep(0.1);
}
