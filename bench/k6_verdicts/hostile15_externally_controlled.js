// args:
// counts: by duration
// The externally-controlled executor with no REST call: its vus run for its duration.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  scenarios: { ctl: { executor: "externally-controlled", vus: 1, maxVUs: 2, duration: "2s" } },
  thresholds: { http_reqs: ["count>2"], vus_max: ["value==2"], checks: ["rate==1"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { "ok": (r) => r.status === 200 });
  sleep(0.2);
}
