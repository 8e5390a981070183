// args: -i 3
// asyncRequest(...).then beside a slow http.get: k6 runs the reaction once the VU is free, not meanwhile.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==9"] } };

export default function () {
  const order = [];
  http.asyncRequest("GET", `${BASE}/get?warm=1`).then(() => order.push("then"));
  http.get(`${BASE}/sleep?ms=200`);
  order.push("slow get");
  http.get(`${BASE}/get?after=1`);
  check(order, { "no reaction inside the iteration's calls": (o) => o.join() === "slow get" });
}
