// args: -u 1 -i 3
// Threshold expressions as people type them: spaces, p(99.9), >=, <=, on nested groups' durations.
import http from "k6/http";
import { group } from "k6";

export const options = {
  thresholds: {
    http_req_duration: ["p(99.9) < 5000", "avg<5000", "med <= 5000"],
    http_reqs: ["count >= 6"],
    http_req_failed: ["rate <= 0.01"],
    "group_duration{group:::shop::cart}": ["max < 10000"],
    "iteration_duration{scenario:default}": ["p(50)>0"],
  },
};

export default function () {
  group("shop", () => {
    http.get("http://127.0.0.1:18481/get?page=shop");
    group("cart", () => {
      http.get("http://127.0.0.1:18481/get?page=cart");
    });
  });
}
