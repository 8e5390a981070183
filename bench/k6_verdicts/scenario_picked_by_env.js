// args: -e SCENARIO=spike
// One scenario of a table picked by -e with a computed key; the others never run.
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18482";
const ALL = {
  smoke: { executor: "shared-iterations", vus: 1, iterations: 2 },
  spike: {
    executor: "ramping-vus",
    startVUs: 0,
    stages: [{ duration: "1s", target: 3 }, { duration: "1s", target: 0 }],
  },
  soak: { executor: "constant-vus", vus: 50, duration: "1h" },
};
const picked = __ENV.SCENARIO || "smoke";

export const options = {
  scenarios: { [picked]: ALL[picked] },
  thresholds: {
    [`http_reqs{scenario:${picked}}`]: ["count>0"],
    "http_reqs{scenario:soak}": ["count==0"],
  },
};

export default function () {
  http.get(`${BASE}/sleep?ms=100`);
}
