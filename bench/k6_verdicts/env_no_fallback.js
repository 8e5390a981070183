// args: -i 10 -e BASE=http://127.0.0.1:18481
// No fallback: the URL exists only once -e gives it.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { http_req_duration: ["p(95)<2000"] } };

export default function () {
  const res = http.get(`${__ENV.BASE}/json`);
  check(res, { "has message": (r) => r.json("message") === "Hello, World!" });
}
