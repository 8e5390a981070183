// args: -u 1 -i 4
// fail() inside a nested group ends the iteration; group_duration of both groups still judged by tag.
import http from "k6/http";
import { check, fail, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "group_duration{group:::outer::inner}": ["max>=0"],
    "group_duration{group:::outer}": ["max>=0"],
    iterations: ["count==4"],
    "http_reqs{group:::outer::inner}": ["count==4"],
    "http_reqs{group:::outer}": ["count==2"],
  },
};

export default function () {
  group("outer", () => {
    group("inner", () => {
      const r = http.get(`${BASE}/get`);
      if (__ITER % 2 === 1) fail(`odd iteration ${__ITER}`);
      check(r, { "inner ok": (x) => x.status === 200 });
    });
    http.get(`${BASE}/get?after=1`);
  });
}
