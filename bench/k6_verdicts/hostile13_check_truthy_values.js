// args: -u 1 -i 2
// Check callbacks returning numbers, strings, null, objects and undefined: JavaScript truthiness decides.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate>0.4", "rate<0.6"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, {
    "a number": (r) => r.status,
    "zero": () => 0,
    "a string": (r) => r.body.slice(0, 1),
    "empty string": () => "",
    "null": () => null,
    "an object": () => ({}),
    "undefined": () => undefined,
    "an array": () => [],
    "NaN": () => NaN,
    "plain true value": true,
  });
}
