// args: -e API=/json -e EXPECT=200 --env TAGGED=yes
// env: K6_VUS=2 K6_DURATION=2s
// Several -e/--env flags read by __ENV, the load from K6_VUS and K6_DURATION, sleep in each iteration.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "checks{check:status as expected}": ["rate==1"],
    "http_reqs{tagged:yes}": ["count>10"],
    vus_max: ["value==2"],
  },
};

export default function () {
  const res = http.get(`${BASE}${__ENV.API}`, { tags: { tagged: __ENV.TAGGED } });
  check(res, { "status as expected": (r) => String(r.status) === __ENV.EXPECT });
  sleep(0.1);
}
