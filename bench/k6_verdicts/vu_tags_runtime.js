// args: -u 2 -i 4
// exec.vu.tags set at run time tag every later sample of the VU; checks with their own tags.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{tier:gold}": ["count==4"],
    "checks{kind:smoke}": ["rate==1"],
    "http_req_duration{tier:gold}": ["p(95)<3000"],
  },
};

export default function () {
  http.get(`${BASE}/`);
  exec.vu.tags.tier = "gold";
  const res = http.get(`${BASE}/json`);
  check(res, { "json ok": (r) => r.status === 200 }, { kind: "smoke" });
  delete exec.vu.tags.tier;
}
