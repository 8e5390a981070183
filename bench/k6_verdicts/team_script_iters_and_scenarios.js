// A script with iterations beside scenarios, in one tier: refused by k6 (104).
import http from "k6/http";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  iterations: 3,
  scenarios: { one: { executor: "shared-iterations", vus: 1, iterations: 2 } },
};

export default function () {
  http.get(`${BASE}/get`);
}
