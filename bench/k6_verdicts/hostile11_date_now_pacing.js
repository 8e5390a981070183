// args: -u 1 -i 2
// counts: by duration
// A pacing loop on Date.now(): polls for 600 ms each iteration, then waits out the pace.
import http from "k6/http";
import { check, sleep } from "k6";
import { Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const polls = new Trend("polls_per_iteration");

export const options = {
  thresholds: { polls_per_iteration: ["min>=2"], iteration_duration: ["min>=700"], checks: ["rate==1"] },
};

export default function () {
  const start = Date.now();
  let n = 0;
  while (Date.now() - start < 600) {
    check(http.get(`${BASE}/get?poll=${n}`), { polled: (r) => r.status === 200 });
    n++;
    sleep(0.1);
  }
  polls.add(n);
  const left = 800 - (Date.now() - start);
  if (left > 0) sleep(left / 1000);
}
