// args: -u 2 -i 4
// k6's documentation's tags and groups: nested groups, tags on a request and on a check, a VU's tag set at
// run time, and thresholds on each (`group:::outer::inner`, a check's tag, a request's tag).
import http from "k6/http";
import exec from "k6/execution";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  tags: { team: "pizza" },
  thresholds: {
    "http_reqs{group:::outer}": ["count==4"],
    "http_reqs{group:::outer::inner}": ["count==4"],
    "http_reqs{my_tag:hello}": ["count==4"],
    "checks{check_kind:status}": ["rate==1"],
    "http_reqs{team:pizza}": ["count==12"],
    "http_reqs{phase:late}": ["count==4"],
    "group_duration{group:::outer::inner}": ["max>=0"],
    "group_duration{group:::outer}": ["max>=0"],
  },
};

export default function () {
  group("outer", () => {
    const res = http.get(`${BASE}/get`, { tags: { my_tag: "hello" } });
    check(res, { "outer 200": (r) => r.status === 200 }, { check_kind: "status" });
    group("inner", () => {
      const r2 = http.get(`${BASE}/get?in=1`);
      check(r2, { "inner 200": (r) => r.status === 200 }, { check_kind: "status" });
    });
  });
  exec.vu.metrics.tags.phase = "late";
  http.get(`${BASE}/get?late=1`);
  delete exec.vu.metrics.tags.phase;
}
