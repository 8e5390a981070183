// args:
// counts: by duration
// per-vu-iterations whose maxDuration cuts it short: fewer iterations than asked, the threshold says so.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    soak: { executor: "per-vu-iterations", vus: 2, iterations: 100, maxDuration: "2s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count<100"], http_reqs: ["count>2"], checks: ["rate==1"] },
};

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
  sleep(0.4);
}
