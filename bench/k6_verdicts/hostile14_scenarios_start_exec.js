// args:
// Two scenarios, the second starting late, each running a named function with its own tags and env.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = {
  scenarios: {
    early: { executor: "per-vu-iterations", vus: 1, iterations: 3, exec: "browse", tags: { team: "web" } },
    late: {
      executor: "shared-iterations",
      vus: 2,
      iterations: 4,
      startTime: "1s",
      exec: "order",
      env: { KIND: "orders" },
      tags: { team: "shop" },
    },
  },
  thresholds: {
    "http_reqs{scenario:early}": ["count==3"],
    "http_reqs{scenario:late}": ["count==4"],
    "http_reqs{team:shop}": ["count==4"],
    "iterations{team:web}": ["count==3"],
    "checks{scenario:late}": ["rate==1"],
  },
};

export function browse() {
  http.get("http://127.0.0.1:18481/get?page=" + exec.scenario.iterationInTest);
}

export function order() {
  const res = http.post("http://127.0.0.1:18481/post", JSON.stringify({ kind: __ENV.KIND }));
  check(res, { "kind from the scenario's env": (r) => r.json("json.kind") === "orders" });
}
