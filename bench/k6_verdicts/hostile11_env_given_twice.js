// args: -u 1 -i 2 -e STAGE=dev -e STAGE=prod --env LIMIT=1 -e LIMIT=3
// The same variable given twice with -e/--env: the last one wins, as pflag's map keeps it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

export default function () {
  check(null, { "last STAGE": () => __ENV.STAGE === "prod", "last LIMIT": () => __ENV.LIMIT === "3" });
  for (let i = 0; i < Number(__ENV.LIMIT); i++) http.get(`${BASE}/get?stage=${__ENV.STAGE}`);
}
