// args: -u 1 -i 2
// http.request with a lowercase method name (sent and tagged as spelled) and numeric header values.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate==1"], "http_reqs{method:patch}": ["count==2"] } };

export default function () {
  const r = http.request("patch", "http://127.0.0.1:18481/anything/x", "b", { headers: { "X-Count": 5 } });
  check(r, {
    "method echoed": (res) => res.json("method") === "patch",
    "numeric header": (res) => res.json("headers.X-Count") === "5",
  });
}
