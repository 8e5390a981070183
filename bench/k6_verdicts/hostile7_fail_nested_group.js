// args: -i 4
// fail() inside a nested group on every other iteration: the checks before it are counted, the rest of
// the iteration is not run.
import http from "k6/http";
import { check, fail, group } from "k6";
import { Counter } from "k6/metrics";

const reached = new Counter("reached_end");

export const options = {
  thresholds: {
    reached_end: ["count==2"],
    "checks{group:::outer}": ["rate==1"],
    "http_reqs{group:::outer::inner}": ["count==4"],
  },
};

export default function () {
  group("outer", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "outer ok": (r) => r.status === 200 });
    group("inner", () => {
      const res = http.get(`http://127.0.0.1:18481/status/${__ITER % 2 ? 200 : 500}`);
      if (res.status !== 200) fail(`status ${res.status}`);
    });
  });
  reached.add(1);
}
