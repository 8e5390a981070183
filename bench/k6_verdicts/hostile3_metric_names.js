// args: -u 2 -i 4
// Custom metric names as teams first write them: dashes, dots, spaces; thresholds on each.
import http from "k6/http";
import { check } from "k6";
import { Counter, Trend } from "k6/metrics";

const loginErrors = new Counter("login-errors");
const ttfb = new Trend("api.ttfb", true);

export const options = {
  thresholds: { "login-errors": ["count<1"], "api.ttfb": ["p(95)<3000"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  ttfb.add(res.timings.waiting);
  if (res.status !== 200) loginErrors.add(1);
  check(res, { ok: (r) => r.status === 200 });
}
