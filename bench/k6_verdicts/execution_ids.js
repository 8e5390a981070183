// args:
// __VU, __ITER, exec.vu.idInTest, exec.scenario.name and iterationInInstance as a team tags with them.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: {
    readers: { executor: "per-vu-iterations", vus: 2, iterations: 3, exec: "read" },
  },
  thresholds: {
    "http_reqs{vu:1}": ["count==3"],
    "http_reqs{vu:2}": ["count==3"],
    "http_reqs{first:yes}": ["count==2"],
    "checks{check:ids agree}": ["rate==1"],
  },
};

export function read() {
  const first = __ITER === 0 ? "yes" : "no";
  const res = http.get(`${BASE}/get?vu=${__VU}&iter=${__ITER}`, { tags: { vu: String(__VU), first } });
  check(res, {
    "ids agree": (r) =>
      r.json("args.vu") === String(exec.vu.idInTest) && exec.scenario.name === "readers" &&
      exec.vu.iterationInScenario === __ITER,
  });
}
