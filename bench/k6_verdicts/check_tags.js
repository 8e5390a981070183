// args: -u 2 -i 6
// check() with tags of its own (its third argument) and thresholds on checks by those tags.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{kind:contract}": ["rate==1"],
    "checks{kind:slo}": ["rate==0"],
    "checks{kind:missing}": ["rate==1"],
  },
};

export default function () {
  const res = http.get(`${BASE}/json`);
  check(res, { "is json": (r) => r.headers["Content-Type"].includes("json") }, { kind: "contract" });
  check(res, { "impossibly fast": (r) => r.timings.duration < 0 }, { kind: "slo" });
}
