// args: -u 2 -i 6
// exec.vu.metrics.tags set in an iteration tag its later requests; exec.vu.metrics.metadata does not;
// exec.scenario.iterationInTest and exec.vu.iterationInScenario counted alike under both.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  thresholds: {
    "http_reqs{tier:gold}": ["count==3"],
    "http_reqs{tier:silver}": ["count==3"],
    "http_reqs{trace:abc}": ["count==0"],
    checks: ["rate==1"],
  },
};

export default function () {
  exec.vu.metrics.tags.tier = exec.scenario.iterationInTest % 2 === 0 ? "gold" : "silver";
  exec.vu.metrics.metadata.trace = "abc";
  const res = http.get(`${BASE}/get?i=${exec.scenario.iterationInTest}`);
  check(res, {
    "in test below 6": () => exec.scenario.iterationInTest < 6,
    "vu iteration": () => exec.vu.iterationInScenario === __ITER,
    "tag readable": () => exec.vu.tags.tier === exec.vu.metrics.tags.tier,
  });
}
