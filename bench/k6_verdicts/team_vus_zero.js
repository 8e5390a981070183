// args: -u 0 -d 1s
// Zero VUs with a duration: k6 refuses the config.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
}
