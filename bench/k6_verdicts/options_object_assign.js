// args:
// Options merged with Object.assign from a shared base and a function's thresholds, as a team's config
// module builds them.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const base = { vus: 2, iterations: 8, tags: { team: "web" } };

function thresholdsFor(p95) {
  return {
    http_req_duration: [`p(95)<${p95}`],
    "http_reqs{team:web}": ["count==8"],
    checks: ["rate==1"],
  };
}

export const options = Object.assign({}, base, {
  thresholds: thresholdsFor(3000),
});

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "is 200": (r) => r.status === 200 });
}
