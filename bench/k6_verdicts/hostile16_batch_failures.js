// args: -i 2
// http.batch with a refused port, a 500 and a 200: failures in http_req_failed, the batch returns all.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    http_req_failed: ["rate>0.6", "rate<0.7"],
    "http_reqs{status:0}": ["count==2"],
    "http_reqs{status:500}": ["count==2"],
  },
};

export default function () {
  const rs = http.batch([
    "http://127.0.0.1:9/refused",
    "http://127.0.0.1:18481/status/500",
    "http://127.0.0.1:18481/get",
  ]);
  check(rs, {
    "three back": (r) => r.length === 3,
    "first refused": (r) => r[0].status === 0 && r[0].error_code === 1212,
  });
}
