// args: -i 2 --max-redirects 1
// k6's --max-redirects flag: a chain of three redirects stops after one, its last answer a 302.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{check:stopped at a redirect}": ["rate==1"],
    http_reqs: ["count==4"],
  },
};

http.setResponseCallback(http.expectedStatuses(200, 302));

export default function () {
  const res = http.get(`${BASE}/redirect/3`);
  check(res, { "stopped at a redirect": (r) => r.status === 302 });
}
