// env: K6_MIN_ITERATION_DURATION=300ms K6_USER_AGENT=ci-agent/2
// Options from K6_* variables (a minimum iteration time, a User-Agent), the response's headers listed by
// their canonical names and the request's as lists of values.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  iterations: 3,
  thresholds: { iterations: ["rate<4"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, {
    "headers listed": (r) => Object.keys(r.headers).includes("Content-Type"),
    "headers as JSON": (r) => JSON.parse(JSON.stringify(r.headers))["Content-Type"] !== undefined,
    "agent as a list": (r) => r.request.headers["User-Agent"][0] === "ci-agent/2",
  });
}
