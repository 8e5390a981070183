// args: -u 2 -i 6
// No systemTags: k6's default set tags every request, so thresholds by url, name, method, status,
// expected_response, scenario, group and check each select their samples.
import http from "k6/http";
import { check, group } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    [`http_reqs{url:${BASE}/get}`]: ["count==6"],
    [`http_req_duration{name:${BASE}/get}`]: ["max>0"],
    "http_reqs{method:GET,status:200}": ["count==6"],
    "http_reqs{expected_response:true}": ["count==6"],
    "iterations{scenario:default}": ["count==6"],
    "checks{group:::api}": ["rate==1"],
    "checks{check:got 200}": ["rate==1"],
  },
};

export default function () {
  group("api", () => {
    check(http.get(`${BASE}/get`), { "got 200": (r) => r.status === 200 });
  });
}
