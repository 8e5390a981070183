// args: -u 2 -i 4
// Groups nested three deep with checks inside each, a group's return value used, and thresholds on a
// nested group's duration and on checks of one group.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "group_duration{group:::shop::cart::pay}": ["p(95)<5000", "max<5000"],
    "checks{group:::shop::cart}": ["rate==1"],
    "checks{group:::shop::cart::pay}": ["rate<1"],
    "http_reqs{group:::shop}": ["count==4"],
  },
};

export default function () {
  group("shop", function () {
    check(http.get(`${BASE}/get?p=shop`), { "shop ok": (r) => r.status === 200 });
    const id = group("cart", function () {
      const r = http.post(`${BASE}/post`, JSON.stringify({ sku: "A" }), {
        headers: { "Content-Type": "application/json" },
      });
      check(r, { "cart ok": (x) => x.json("json.sku") === "A" });
      group("pay", function () {
        const p = http.get(`${BASE}/status/402`);
        check(p, { "paid": (x) => x.status === 200, "declined": (x) => x.status === 402 });
      });
      return r.json("json.sku");
    });
    check(id, { "group returned": (v) => v === "A" });
  });
}
