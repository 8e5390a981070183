// args: -i 2
// timeout as a number of milliseconds and as "500ms" on a 2 s delay: status 0, error_code 1050.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{error_code:1050}": ["count==4"],
    http_req_failed: ["rate==1"],
    checks: ["rate==1"],
  },
};

export default function () {
  const a = http.get("http://127.0.0.1:18481/delay/2", { timeout: 300 });
  const b = http.get("http://127.0.0.1:18481/delay/2", { timeout: "500ms" });
  check([a, b], {
    "status 0": (rs) => rs.every((r) => r.status === 0),
    "code 1050": (rs) => rs.every((r) => r.error_code === 1050),
    "error text": (rs) => rs.every((r) => /timeout/i.test(r.error)),
    "body null": (rs) => rs.every((r) => r.body === null),
  });
}
