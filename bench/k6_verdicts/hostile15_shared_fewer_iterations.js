// args:
// shared-iterations with more VUs than iterations: k6 refuses the configuration (104).
import http from "k6/http";
import exec from "k6/execution";

export const options = {
  scenarios: { few: { executor: "shared-iterations", vus: 5, iterations: 2 } },
  thresholds: {
    iterations: ["count==2"],
    vus_max: ["value==5"],
    http_reqs: ["count==2"],
    "http_reqs{scenario:few}": ["count==2"],
  },
};

export default function () {
  http.get(`http://127.0.0.1:18481/get?vu=${exec.vu.idInTest}`);
}
