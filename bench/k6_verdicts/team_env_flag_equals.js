// args: --env=MODE=x=y --vus=2 --iterations=4
// Flags written with `=` (--vus=2), an -e value with `=` inside.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { checks: ["rate==1"], vus_max: ["value==2"], iterations: ["count==4"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "MODE whole": () => __ENV.MODE === "x=y" });
}
