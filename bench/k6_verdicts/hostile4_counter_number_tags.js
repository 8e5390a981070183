// args: -u 1 -i 4
// A Counter and a Rate added to with tags whose values are numbers and booleans (not strings), and
// thresholds that name those values as text.
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";

const byStatus = new Counter("responses_by_status");
const okRate = new Rate("ok_rate");
export const options = {
  thresholds: {
    "responses_by_status{code:200}": ["count==4"],
    "responses_by_status{code:404}": ["count==4"],
    "ok_rate{retry:false}": ["rate==1"],
  },
};

export default function () {
  for (const path of ["/get", "/status/404"]) {
    const res = http.get(`http://127.0.0.1:18481${path}`);
    byStatus.add(1, { code: res.status, first: __ITER === 0 });
    if (res.status === 200) okRate.add(true, { retry: false });
  }
}
