// args: -u 1 -i 4
// Threshold comparisons of every operator k6 reads: ===, ==, !=, >=, <=, and a med on a Trend.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    http_reqs: ["count===4", "count!=5", "count>=4", "count<=4"],
    checks: ["rate==1"],
    http_req_duration: ["med<3000", "min>=0"],
    iterations: ["count!=4"],
  },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
