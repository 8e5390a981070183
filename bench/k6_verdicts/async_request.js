// args: -u 2 -i 6
// An async default function awaiting http.asyncRequest and Promise.all of two, as k6 v1 scripts write it.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_reqs: ["count==18"],
    "http_reqs{name:parallel}": ["count==12"],
    "checks{check:async json}": ["rate==1"],
    http_req_failed: ["rate==0"],
  },
};

export default async function () {
  const res = await http.asyncRequest("GET", `${BASE}/json`);
  check(res, { "async json": (r) => r.status === 200 });
  const [a, b] = await Promise.all([
    http.asyncRequest("GET", `${BASE}/get?n=1`, null, { tags: { name: "parallel" } }),
    http.asyncRequest("GET", `${BASE}/get?n=2`, null, { tags: { name: "parallel" } }),
  ]);
  check(a, { "both answered": () => a.status === 200 && b.status === 200 });
}
