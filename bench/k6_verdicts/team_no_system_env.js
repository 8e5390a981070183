// args: --include-system-env-vars=false -e ONLY=1 -i 1
// Without the system's variables __ENV holds the -e ones only.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"] } };

export default function () {
  check(http.get(`${BASE}/get`), {
    "no PATH": () => __ENV.PATH === undefined,
    "ONLY given": () => __ENV.ONLY === "1",
  });
}
