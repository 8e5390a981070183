// args: -u 1 -i 3 --out json=/tmp/h8_points.json --summary-trend-stats avg,min,max,p(95)
// --out json to a file beside --summary-export; thresholds on trend stats the summary lists.
import http from "k6/http";
import { Trend } from "k6/metrics";

const waitMs = new Trend("h8_wait", true);

export const options = {
  thresholds: { h8_wait: ["p(95)<5000", "max<5000"], http_req_duration: ["avg<5000", "min>=0"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18482/");
  waitMs.add(res.timings.waiting);
}
