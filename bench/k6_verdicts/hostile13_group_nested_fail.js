// args: -u 1 -i 3
// Nested groups, a failing check in the inner one: thresholds by each group's path.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  thresholds: {
    "checks{group:::shop::cart}": ["rate==0"],
    "checks{group:::shop}": ["rate==1"],
    "http_reqs{group:::shop::cart}": ["count==3"],
    checks: ["rate>0.9"],
  },
};

export default function () {
  group("shop", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "shop up": (r) => r.status === 200 });
    group("cart", () => {
      const res = http.get("http://127.0.0.1:18481/status/404");
      check(res, { "cart found": (r) => r.status === 200 });
    });
  });
}
