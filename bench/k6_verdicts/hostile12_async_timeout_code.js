// args: -u 1 -i 2
// An asyncRequest with a params.timeout under the server's delay: status 0, error_code 1050, counted failed.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_req_failed{kind:slow}": ["rate==1"],
    "http_reqs{error_code:1050}": ["count==2"],
    checks: ["rate==1"],
  },
};

export default async function () {
  const res = await http.asyncRequest("GET", "http://127.0.0.1:18481/delay/2", null, {
    timeout: "300ms",
    tags: { kind: "slow" },
  });
  check(res, { "timed out": (r) => r.status === 0 && r.error_code === 1050 });
}
