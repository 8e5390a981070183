// args: -u 1 -i 2
// options.userAgent for the whole test, and one request that sets its own User-Agent header.
import http from "k6/http";
import { check } from "k6";

export const options = { userAgent: "team-ci-probe/2.3 (+perf)", thresholds: { checks: ["rate==1"] } };

export default function () {
  const def = http.get("http://127.0.0.1:18481/user-agent");
  const own = http.get("http://127.0.0.1:18481/headers", { headers: { "User-Agent": "curl/8.0" } });
  check(def, { "option agent": (r) => r.json("user-agent") === "team-ci-probe/2.3 (+perf)" });
  check(own, { "request's own agent": (r) => r.json("headers.User-Agent") === "curl/8.0" });
}
