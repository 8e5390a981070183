// args: -i 3 --tag env=ci
// Checks with tags in groups, thresholds on checks by group and by the check's own tag and the CLI tag.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  tags: { team: "web" },
  thresholds: {
    "checks{group:::api}": ["rate==1"],
    "checks{kind:slow}": ["rate==0"],
    "checks{env:ci}": ["rate>0.5"],
    "checks{team:web}": ["rate>0.5"],
  },
};

export default function () {
  group("api", () => {
    check(http.get(`${BASE}/get`), { "api ok": (r) => r.status === 200 });
  });
  check(http.get(`${BASE}/status/503`), { "slow ok": (r) => r.status === 200 }, { kind: "slow" });
}
