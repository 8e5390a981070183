// args: -u 1 -i 2 -e EMPTY= -e NAME=svc -e PADDED=a=b
// --env values that are empty or hold a `=`: present in __ENV, the empty one falsy, a fallback taken only by ||.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const region = __ENV.EMPTY || "eu";
const kept = __ENV.EMPTY ?? "unset";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  http.get(`${BASE}/get?region=${region}`);
  check(null, {
    "EMPTY is in __ENV": () => "EMPTY" in __ENV && __ENV.EMPTY === "",
    "|| falls back": () => region === "eu",
    "?? keeps the empty value": () => kept === "",
    "value past the first =": () => __ENV.PADDED === "a=b",
    "absent is undefined": () => __ENV.H11_NOT_SET === undefined,
    "name given": () => __ENV.NAME === "svc",
  });
}
