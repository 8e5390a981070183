// args: -u 1 -i 2
// A Counter declared inside the default function throws there (k6 allows metrics only in init code); the
// request before it counts, the one after it never runs.
import http from "k6/http";
import { Counter } from "k6/metrics";

export const options = {
  thresholds: { "http_reqs{step:before}": ["count==2"], "http_reqs{step:after}": ["count==0"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get", { tags: { step: "before" } });
  const late = new Counter("late_orders");
  late.add(1);
  http.get("http://127.0.0.1:18481/get", { tags: { step: "after" } });
}
