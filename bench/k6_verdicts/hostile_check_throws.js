// args: -i 3
// A check whose function throws (res.json() of an HTML page): k6 ends the iteration at the throw.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], iterations: ["count==3"] } };

export default function () {
  const res = http.get(`${BASE}/html`);
  check(res, { "status": (r) => r.status === 200 });
  check(res, { "json id": (r) => r.json().id === 1, "never reached": () => true });
  http.get(`${BASE}/get?after=1`);
}
