// args: -i 4 -u 2
// noVUConnectionReuse and httpDebug in options: k6 runs both (a new connection each iteration).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  noVUConnectionReuse: true,
  httpDebug: "full",
  thresholds: { checks: ["rate==1"], http_req_connecting: ["max>=0"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { "200": (r) => r.status === 200 });
  check(http.get(`${BASE}/get`), { "again": (r) => r.status === 200 });
}
