// args: -u 1 -i 3
// A best-effort beacon to an address nobody listens on, sent with `responseCallback: null` so it is not
// judged, beside real requests; the team's budget is on http_req_failed.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    http_req_failed: ["rate==0"],
    "http_reqs{expected_response:true}": ["count==3"],
    checks: ["rate==1"],
  },
};

export default function () {
  const beacon = http.get("http://127.0.0.1:1/beacon", { responseCallback: null, timeout: "2s" });
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "ok": (r) => r.status === 200, "beacon lost": () => beacon.status === 0 });
}
