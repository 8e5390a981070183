// args: -i 3 -s 1s:1
// --iterations and --stage on one command line: two ways of the load in one tier, refused by k6 (104).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export default function () {
  http.get(`${BASE}/get`);
}
