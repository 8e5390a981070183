// args:
// Thresholds on a team's own request tags (feature, tier) across built-in and custom metrics.
import http from "k6/http";
import { Counter, Trend } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const carts = new Counter("carts_made");
const cartTime = new Trend("cart_time", true);

export const options = {
  iterations: 4,
  thresholds: {
    "http_req_duration{feature:search}": ["p(95)<3000"],
    "http_reqs{feature:search,tier:free}": ["count==2"],
    "http_reqs{feature:cart}": ["count==4"],
    "carts_made{tier:paid}": ["count==2"],
    "cart_time{tier:free}": ["max<3000"],
  },
};

export default function () {
  const tier = __ITER % 2 === 0 ? "free" : "paid";
  http.get(`${BASE}/get?q=shoes`, { tags: { feature: "search", tier } });
  const res = http.post(`${BASE}/post`, "item=1", { tags: { feature: "cart" } });
  carts.add(1, { tier });
  cartTime.add(res.timings.duration, { tier });
}
