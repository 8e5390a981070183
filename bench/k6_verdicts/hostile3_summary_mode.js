// args: -u 1 -i 3 --summary-mode=full
// k6 v1's end-of-test summary in its full form, as a team asks for it in CI.
import http from "k6/http";
import { check, group } from "k6";

export const options = { thresholds: { "http_req_duration{group:::api}": ["p(95)<3000"] } };

export default function () {
  group("api", () => {
    check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
  });
}
