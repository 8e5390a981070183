// args:
// Two scenarios one after the other (`startTime`), each with its own exec, env and tags, judged apart.
import http from "k6/http";
import { check } from "k6";
import exec from "k6/execution";

export const options = {
  scenarios: {
    warm: {
      executor: "shared-iterations",
      vus: 1,
      iterations: 2,
      exec: "warm",
      env: { P: "w" },
      tags: { ph: "warm" },
    },
    main: {
      executor: "per-vu-iterations",
      vus: 2,
      iterations: 2,
      startTime: "1s",
      exec: "main",
      env: { P: "m" },
      tags: { ph: "main" },
    },
  },
  thresholds: {
    "http_reqs{ph:warm}": ["count==2"],
    "http_reqs{ph:main}": ["count==4"],
    "checks{scenario:main}": ["rate==1"],
    "iterations{scenario:warm}": ["count==2"],
  },
};

export function warm() {
  check(http.get(`http://127.0.0.1:18481/get?p=${__ENV.P}`), { "warm env": (r) => r.json("args.p") === "w" });
}

export function main() {
  const r = http.get(`http://127.0.0.1:18482/?p=${__ENV.P}`);
  check(r, { "main after warm": () => exec.scenario.name === "main" && __ENV.P === "m" });
}
