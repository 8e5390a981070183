// Only `vus` in the options: k6 ignores it (with a warning) and one VU runs one iteration.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { vus: 3, thresholds: { iterations: ["count==1"] } };

export default function () {
  http.get(`${BASE}/get`);
}
