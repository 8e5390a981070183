// args: -i 10
// A counter never added to, held at zero: a threshold k6 judges as passed.
import http from "k6/http";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const errors = new Counter("errors");

export const options = { thresholds: { errors: ["count==0"], http_req_failed: ["rate==0"] } };

export default function () {
  const res = http.get(`${BASE}/json`);
  if (res.status !== 200) errors.add(1);
}
