// args: -i 3
// A check whose second condition throws: the first counts, the throw ends the iteration, later code does not run.
import http from "k6/http";
import { check } from "k6";

export const options = { thresholds: { checks: ["rate>0.4"], "http_reqs{name:after}": ["count==0"] } };

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, {
    "status 200": (r) => r.status === 200,
    "body field": (r) => r.json().missing.deep === 1,
    "never reached": () => true,
  });
  http.get("http://127.0.0.1:18481/get", { tags: { name: "after" } });
}
