// args: -i 0
// Zero iterations: k6 refuses the config (104).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
}
