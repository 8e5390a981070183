// Groups three deep, the same check name in two groups, a group's return value used, thresholds on the
// checks and the duration of a nested group by its path.
import http from "k6/http";
import { check, group } from "k6";

export const options = {
  iterations: 3,
  thresholds: {
    "checks{group:::shop::cart::pay}": ["rate==1"],
    "group_duration{group:::shop::cart}": ["max<10000"],
    checks: ["rate>0.7"],
  },
};

export default function () {
  group("shop", () => {
    const id = group("browse", () => {
      const res = http.get("http://127.0.0.1:18481/get?item=3");
      check(res, { "ok": (r) => r.status === 200 });
      return res.json("args.item");
    });
    group("cart", () => {
      const res = http.post("http://127.0.0.1:18481/post", { item: id });
      check(res, { "ok": (r) => r.status === 200 });
      group("pay", () => {
        check(res, { "item carried": (r) => r.json("form.item") === "3" });
      });
    });
    check(null, { "fails once a group": () => __ITER !== 0 });
  });
}
