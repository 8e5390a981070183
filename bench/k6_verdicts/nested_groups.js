// args: -u 2 -i 6
// Nested group() calls with checks in each, and thresholds on the inner group's duration, its checks and
// its requests by their `group` tag (`::outer::inner`).
import http from "k6/http";
import { check, group, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "group_duration{group:::shop}": ["p(95)<5000"],
    "group_duration{group:::shop::cart}": ["avg<5000", "max>=1"],
    "checks{group:::shop::cart}": ["rate==1"],
    "checks{group:::shop}": ["rate<1"],
    "http_reqs{group:::shop::cart}": ["count==12"],
    "http_req_duration{group:::shop::browse}": ["p(90)<5000"],
  },
};

export default function () {
  group("shop", () => {
    check(http.get(`${BASE}/validate`), { "browse page": (r) => r.status === 200 });
    group("browse", () => {
      const res = http.get(`${BASE}/json`);
      check(res, { "products listed": (r) => r.status === 200 });
    });
    group("cart", () => {
      check(http.post(`${BASE}/post`, "item=1"), { "added": (r) => r.status === 200 });
      sleep(0.01);
      check(http.get(`${BASE}/get?cart=1`), { "cart shown": (r) => r.json("args.cart") === "1" });
    });
  });
}
