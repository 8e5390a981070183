// args: -u 1 -i 2
// k6's documentation's workaround for iteration_duration: thresholds on the `setup` and `teardown` groups'
// and the default scenario's iteration_duration, so each is its own line of the summary.
import { sleep } from "k6";
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "iteration_duration{scenario:default}": ["max>=200"],
    "iteration_duration{group:::setup}": ["max>=0"],
    "iteration_duration{group:::teardown}": ["max>=0", "max>=300"],
    "http_req_duration{scenario:default}": ["max>=0"],
    "http_reqs{group:::setup}": ["count==1"],
  },
};

export function setup() {
  http.get(`${BASE}/delay/0.1`);
}

export default function () {
  http.get(`${BASE}/get?where=default`);
  sleep(0.2);
}

export function teardown() {
  http.get(`${BASE}/delay/0.1`);
  sleep(0.3);
}
