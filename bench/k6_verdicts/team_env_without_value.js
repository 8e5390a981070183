// args: -e DEBUG -e MODE=a=b -i 1
// -e NAME without a value (k6 sets it empty) and a value holding `=`.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), {
    "DEBUG is set and empty": () => "DEBUG" in __ENV && __ENV.DEBUG === "",
    "MODE keeps its =": () => __ENV.MODE === "a=b",
  });
}
