// args: -u 2 -i 6
// Rate rules on counters (`iterations`, `http_reqs`, `data_sent`: per second) beside count rules.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    iterations: ["rate>0", "count==6"],
    http_reqs: ["rate>0.1", "count==12"],
    data_sent: ["rate>1", "count>100"],
    data_received: ["rate>1"],
    checks: ["rate>0.99", "rate==1"],
    "http_reqs{status:200}": ["count==12"],
  },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { a: (r) => r.status === 200 });
  check(http.get("http://127.0.0.1:18482/"), { b: (r) => r.status === 200 });
}
