// env: K6_VUS=4
// K6_VUS beside options.scenarios: the scenarios run as written (the VUs only shape a default scenario).
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  scenarios: { api: { executor: "per-vu-iterations", vus: 1, iterations: 3 } },
  thresholds: { "http_reqs{scenario:api}": ["count==3"], checks: ["rate==1"] },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(exec.instance, { "one VU": (i) => i.vusInitialized === 1 });
}
