// args: -u 1 -i 4 --summary-trend-stats=avg,min,p(42),p(99.99),count
// A summary's trend stats chosen on the command line, thresholds on the same odd percentiles and a
// custom trend's count.
import http from "k6/http";
import { Trend } from "k6/metrics";

const size = new Trend("body_bytes");
export const options = {
  thresholds: {
    http_req_duration: ["p(42)<3000", "p(99.99)<5000"],
    body_bytes: ["count==4", "p(42)>0"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  size.add(res.body.length);
}
