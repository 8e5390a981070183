// args: -i 2
// A host no resolver knows (.invalid never resolves): the requests fail, the thresholds say what passes.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: { http_req_failed: ["rate==1"], "checks{check:no status}": ["rate==1"] },
};

export default function () {
  const res = http.get("http://no-such-host.invalid/json");
  check(res, { "no status": (r) => r.status === 0, "an error code": (r) => r.error_code > 0 });
}
