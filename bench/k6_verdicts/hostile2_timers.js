// args: -u 2 -i 4
// k6/timers in an async iteration: a request after a setTimeout, a cleared timeout that never fires, and
// a setInterval stopped after three ticks.
import http from "k6/http";
import { check } from "k6";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "k6/timers";
import { Counter } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const ticks = new Counter("ticks");
const never = new Counter("never_fired");

export const options = {
  thresholds: {
    ticks: ["count==12"],
    never_fired: ["count==0"],
    checks: ["rate==1"],
    http_reqs: ["count==4"],
  },
};

export default async function () {
  const id = setTimeout(() => never.add(1), 50);
  clearTimeout(id);
  await new Promise((resolve) => {
    let n = 0;
    const t = setInterval(() => {
      ticks.add(1);
      if (++n === 3) {
        clearInterval(t);
        resolve();
      }
    }, 20);
  });
  const res = await new Promise((resolve) => setTimeout(() => resolve(http.get(`${BASE}/get`)), 30));
  check(res, { "after timeout": (r) => r.status === 200 });
}
