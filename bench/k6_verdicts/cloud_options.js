// args:
// A script written for Grafana Cloud k6 run locally: options.cloud and the legacy ext.loadimpact are
// ignored by a local run, the load and thresholds still apply.
import http from "k6/http";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  vus: 2,
  iterations: 6,
  cloud: {
    projectID: 3650000,
    name: "checkout smoke",
    distribution: { eu: { loadZone: "amazon:ie:dublin", percent: 100 } },
  },
  ext: { loadimpact: { projectID: 3650000, name: "legacy name" } },
  thresholds: { http_req_failed: ["rate<0.01"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/json`), { "status 200": (r) => r.status === 200 });
}
