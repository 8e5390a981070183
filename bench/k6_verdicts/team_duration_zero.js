// args: --duration 0 -u 1
// --duration 0: k6 refuses it (a duration is more than 0; forever is the externally-controlled executor).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
}
