// args: -u 2 -i 8
// if (!check(...)) fail(...): the failed check ends its iteration, what follows is not sent.
import http from "k6/http";
import { check, fail } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: { "http_reqs{step:after}": ["count==0"], checks: ["rate==0"] },
};

export default function () {
  const res = http.get(`${BASE}/status-missing`);
  if (!check(res, { "found": (r) => r.status === 200 })) {
    fail(`unexpected ${res.status}`);
  }
  http.get(`${BASE}/json`, { tags: { step: "after" } });
}
