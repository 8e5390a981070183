// args: -u 1 -i 2
// http.request with OPTIONS and HEAD (and http.head): statuses, empty bodies, headers still there.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{method:OPTIONS}": ["count==2"],
    "http_reqs{method:HEAD}": ["count==4"],
  },
};

export default function () {
  const opts = http.request("OPTIONS", `${BASE}/anything/cors`, null, { headers: { Origin: "https://app" } });
  const head = http.request("HEAD", `${BASE}/get`);
  const head2 = http.head(`${BASE}/bytes/100`);
  check(opts, { "options answered": (r) => r.status === 200 });
  check(head, {
    "head 200": (r) => r.status === 200,
    "head has no body": (r) => !r.body,
    "head keeps its type": (r) => String(r.headers["Content-Type"]).includes("json"),
  });
  check(head2, { "head bytes empty": (r) => !r.body && r.status === 200 });
}
