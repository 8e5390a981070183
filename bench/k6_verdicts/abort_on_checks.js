// args:
// abortOnFail on checks, one by tag beside it: the test stops once checks fall under 90%, as k6's does.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: {
    checks: [{ threshold: "rate>0.9", abortOnFail: true, delayAbortEval: "1s" }],
    "checks{kind:page}": ["rate>0.5"],
  },
};

export default function () {
  check(http.get(`${BASE}/status/503`), { "is 200": (r) => r.status === 200 }, { kind: "page" });
  sleep(0.1);
}
