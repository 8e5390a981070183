// args: -i 4
// check() with tags, a threshold on one tag's checks and on a check by name.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{kind:critical}": ["rate==1"],
    "checks{kind:soft}": ["rate<0.6"],
    "checks{check:soft one}": ["rate==0.5"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "critical one": (r) => r.status === 200 }, { kind: "critical" });
  check(res, { "soft one": () => __ITER % 2 === 0 }, { kind: "soft" });
}
