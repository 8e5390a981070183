// args: -u 2 -i 6
// Custom metrics as teams add them: a Trend with isTime from a response's timings, a Rate over a check's
// result with tags, a Counter and a Gauge added with tags; thresholds on the tagged submetrics.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";
import { Counter, Gauge, Rate, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

const serverTime = new Trend("server_time", true);
const okRate = new Rate("ok_rate");
const orders = new Counter("orders");
const basket = new Gauge("basket_size");

export const options = {
  thresholds: {
    server_time: ["p(95)<3000", "avg>=0"],
    "server_time{endpoint:get}": ["max>=0"],
    "ok_rate{endpoint:status}": ["rate<0.6"],
    ok_rate: ["rate>0.5"],
    "orders{kind:big}": ["count==3"],
    orders: ["count==9"],
    basket_size: ["value>0"],
  },
};

export default function () {
  // Shared iterations split unevenly over VUs: the test-wide number decides, as __ITER would not.
  const n = exec.scenario.iterationInTest;
  const res = http.get(`${BASE}/get`);
  serverTime.add(res.timings.waiting, { endpoint: "get" });
  okRate.add(check(res, { "get ok": (r) => r.status === 200 }), { endpoint: "get" });
  const st = http.get(`${BASE}/status/${n % 2 === 0 ? 503 : 200}`);
  okRate.add(st.status === 200, { endpoint: "status" });
  orders.add(n % 2 === 0 ? 1 : 2, { kind: n % 2 === 0 ? "small" : "big" });
  orders.add(0);
  basket.add(__VU * 10 + __ITER, { vu: String(__VU) });
}
