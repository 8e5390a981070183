// args:
// check() conditions that return values, not booleans: k6 counts a truthy value as a pass.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = { iterations: 3, thresholds: { checks: ["rate>0.4", "rate<0.6"] } };

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, {
    "a string": (r) => r.body,
    "a number": (r) => r.body.length,
    "zero": () => 0,
    "undefined": () => undefined,
    "an object": (r) => r.json(),
    "empty string": () => "",
    "a plain true": true,
    "a plain false": false,
  });
}
