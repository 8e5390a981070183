// Two scenarios with their own exec, env and tags: a ramping-vus one whose long iterations a
// `gracefulRampDown: "0s"` cuts, and a later one (`startTime: "1s"`) with a `gracefulStop`.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-vus",
      startVUs: 1,
      stages: [{ duration: "1s", target: 2 }, { duration: "1s", target: 0 }],
      gracefulRampDown: "0s",
      exec: "browse",
      env: { KIND: "browse" },
      tags: { flow: "browse" },
    },
    late: {
      executor: "shared-iterations",
      vus: 2,
      iterations: 4,
      startTime: "1s",
      gracefulStop: "5s",
      exec: "buy",
      env: { KIND: "buy" },
      tags: { flow: "buy" },
    },
  },
  thresholds: {
    "http_reqs{flow:buy}": ["count==4"],
    "http_reqs{flow:browse}": ["count>0"],
    "checks{scenario:late}": ["rate==1"],
    "checks{scenario:ramp}": ["rate==1"],
  },
};

export function browse() {
  http.get("http://127.0.0.1:18481/get?kind=" + __ENV.KIND);
  check(null, { "browse env": () => __ENV.KIND === "browse" });
  sleep(0.4);
}

export function buy() {
  const res = http.post("http://127.0.0.1:18482/post", { kind: __ENV.KIND });
  check(res, { "buy env": (r) => r.json("form.kind") === "buy" });
}
