// args: -u 5 -i 2
// More VUs than iterations on the command line: k6 refuses the shared count (104).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { iterations: ["count==2"] } };

export default function () {
  http.get(`${BASE}/get`);
}
