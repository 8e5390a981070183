// args:
// setup() checks a dependency and throws: a threshold on setup's own request is judged even so.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  iterations: 4,
  thresholds: { http_reqs: ["count==1"], http_req_failed: ["rate<0.5"] },
};

export function setup() {
  const res = http.get(`${BASE}/validate?id=bad`, { tags: { name: "precheck" } });
  if (res.status !== 200) throw new Error(`precheck answered ${res.status}`);
}

export default function () {
  http.get(`${BASE}/json`);
}
