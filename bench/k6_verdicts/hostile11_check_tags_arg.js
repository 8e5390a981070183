// args: -u 1 -i 4
// check() with tags as its third argument; thresholds on checks by those tags, two at once.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{kind:api}": ["rate==1"],
    "checks{kind:api,tier:gold}": ["rate==1"],
    "checks{kind:edge}": ["rate<0.6"],
    checks: ["rate>0.5"],
  },
};

export default function () {
  const res = http.get(`${BASE}/get`);
  check(res, { "api up": (r) => r.status === 200 }, { kind: "api", tier: "gold" });
  check(res, { "edge odd": () => __ITER % 2 === 1 }, { kind: "edge" });
}
