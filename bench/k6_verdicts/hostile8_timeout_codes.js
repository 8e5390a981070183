// args: -u 1 -i 2
// A 1s timeout against a slow path: error_code 1050 in thresholds, the status 0 and error text checked.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{error_code:1050}": ["count==2"],
    "http_req_failed{expected_response:false}": ["rate==1"],
    "http_req_failed{path:fast}": ["rate==0"],
    checks: ["rate==1"],
  },
};

export default function () {
  const slow = http.get("http://127.0.0.1:18481/delay/3", { timeout: "1s" });
  const fast = http.get("http://127.0.0.1:18481/get", { timeout: 2000, tags: { path: "fast" } });
  check(null, {
    "timed out": () => slow.status === 0 && slow.error_code === 1050,
    "error says timeout": () => /timeout/i.test(slow.error),
    "fast ok": () => fast.status === 200,
  });
}
