// args:
// externally-controlled: the VUs the test starts with, for its duration (k6's REST API may change them).
import http from "k6/http";
import { sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    manual: { executor: "externally-controlled", vus: 2, maxVUs: 4, duration: "2s" },
  },
  thresholds: { http_reqs: ["count>2"] },
};

export default function () {
  http.get(`${BASE}/json`);
  sleep(0.2);
}
