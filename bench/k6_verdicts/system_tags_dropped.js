// args: -u 2 -i 6 --system-tags status,method
// A CI line that keeps only status and method (to cut cardinality): a threshold on a tag left out
// (url, scenario, check) has an empty submetric, judged as k6 judges one: a count of 0, a trend of 0s,
// a rate with no samples passes.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{status:200}": ["count==6"],
    "http_req_failed{method:GET}": ["rate==0"],
    [`http_reqs{url:${BASE}/get}`]: ["count>0"],
    [`http_req_duration{url:${BASE}/get}`]: ["p(95)<1"],
    "iterations{scenario:default}": ["count==0"],
    "checks{check:got 200}": ["rate==1"],
  },
};

export default function () {
  check(http.get(`${BASE}/get`), { "got 200": (r) => r.status === 200 });
}
