// args: --iterations 6 --duration 10s --vus 2
// --iterations with --duration: a shared count bounded by the duration, as k6 maps the shortcuts.
import http from "k6/http";
import exec from "k6/execution";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { thresholds: { iterations: ["count==6"], http_reqs: ["count==6"] } };

export default function () {
  http.get(`${BASE}/get?vu=${exec.vu.idInTest}`);
}
