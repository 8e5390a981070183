// args: -u 1 -i 4
// Check names as teams write them, with a colon and a slash, judged by `checks{check:...}` thresholds.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    "checks{check:GET /get: status 200}": ["rate==1"],
    "checks{check:body: has url}": ["rate==1"],
    "checks{check:flaky: even iterations}": ["rate<0.6", "rate>0.4"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, {
    "GET /get: status 200": (r) => r.status === 200,
    "body: has url": (r) => r.json("url") !== undefined,
    "flaky: even iterations": () => __ITER % 2 === 0,
  });
}
