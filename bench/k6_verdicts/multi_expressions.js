// args: -u 2 -i 10 --summary-trend-stats avg,p(90),p(99.9),max
// Several rules on one metric, p(99.9) and med among them; one rule of a pair fails.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    http_req_duration: ["p(99.9)<3000", "med<2000", "avg<2000", "max>=0"],
    "http_req_duration{name:slow}": ["min>=15", "p(90)<10"],
    http_reqs: ["count>=20", "rate>0"],
  },
};

export default function () {
  http.get(`${BASE}/json`);
  http.get(`${BASE}/sleep?ms=20`, { tags: { name: "slow" } });
}
