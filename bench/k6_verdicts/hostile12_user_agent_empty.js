// args: -u 1 -i 2
// options.userAgent set empty, as a team hides k6's agent from a WAF: what the server then sees.
import http from "k6/http";
import { check } from "k6";

export const options = { userAgent: "", thresholds: { checks: ["rate==1"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/headers");
  check(res, { "no k6 agent": (r) => !String(r.json("headers.User-Agent") ?? "").startsWith("k6/") });
}
