// args:
// Each row used once across VUs: exec.scenario.iterationInTest picks the row, as k6's docs partition data.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";
import { SharedArray } from "k6/data";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const users = new SharedArray(
  "users",
  () => Array.from({ length: 12 }, (_, k) => ({ id: k, name: `user${k}` })),
);

export const options = {
  scenarios: {
    signup: { executor: "shared-iterations", vus: 3, iterations: 12, maxDuration: "20s" },
  },
  thresholds: { "checks{scenario:signup}": ["rate==1"], "http_reqs{scenario:signup}": ["count==12"] },
};

export default function () {
  const user = users[exec.scenario.iterationInTest];
  const res = http.post(`${BASE}/post`, JSON.stringify(user), {
    headers: { "Content-Type": "application/json" },
  });
  check(res, {
    "row echoed": (r) => r.json("json.name") === `user${exec.scenario.iterationInTest}`,
    "row in range": () => user !== undefined,
  });
}
