// args: --duration 2s --vus 2
// --duration and --vus on the command line replace the script's scenarios, as k6's flags do.
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: { long: { executor: "per-vu-iterations", vus: 1, iterations: 3, exec: "other" } },
  thresholds: { "http_reqs{name:main}": ["count>5"], "http_reqs{name:other}": ["count==0"] },
};

export function other() {
  http.get(`${BASE}/`, { tags: { name: "other" } });
}

export default function () {
  http.get(`${BASE}/json`, { tags: { name: "main" } });
  sleep(0.2);
}
