// args: -u 2 -d 2s
// k6's documentation's threshold expressions: each aggregation of each metric type, spaces or none, the
// object form with abortOnFail and delayAbortEval, and a failing one.
import http from "k6/http";
import { check, sleep } from "k6";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const myTrend = new Trend("my_trend");
const myCounter = new Counter("my_counter");
const myGauge = new Gauge("my_gauge");
const myRate = new Rate("my_rate");

export const options = {
  thresholds: {
    http_req_duration: ["p(90) < 4000", "p(95)<4000", "avg<4000", "med<4000", "min>=0", "max<10000"],
    http_req_failed: [{ threshold: "rate<0.01", abortOnFail: true, delayAbortEval: "1s" }],
    my_trend: ["avg==5", "p(99.9)==9", "min==1"],
    my_counter: ["count>10", "rate>1"],
    my_gauge: ["value==7"],
    my_rate: ["rate>=0.5", "rate<0.6"],
    checks: ["rate>0.99"],
    iterations: ["count<1"],
  },
};

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
  for (let k = 1; k <= 9; k++) myTrend.add(k);
  myCounter.add(5);
  myGauge.add(3);
  myGauge.add(7);
  myRate.add(true);
  myRate.add(false);
  sleep(0.2);
}
