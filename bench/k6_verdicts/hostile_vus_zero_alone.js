// args: -u 0
// -u 0 and nothing else: k6 warns that vus is ignored and runs one iteration of one VU.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { scenarios: {}, thresholds: { iterations: ["count==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), { "200": (r) => r.status === 200 });
}
