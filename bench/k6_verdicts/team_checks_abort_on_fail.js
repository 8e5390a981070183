// args: -i 4
// abortOnFail on checks, as teams stop a test whose checks fail: k6 aborts; loadlab judges checks after the
// run and refuses it before the load (documented).
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: [{ threshold: "rate>0.9", abortOnFail: true }] } };

export default function () {
  check(http.get(`${BASE}/json`), { "is 200": (r) => r.status === 200 });
}
