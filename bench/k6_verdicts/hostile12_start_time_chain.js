// args:
// counts: by duration
// Smoke, then load, then a tail: scenarios chained by startTime, counted by scenario.
import http from "k6/http";
import { sleep } from "k6";
import exec from "k6/execution";
import { Counter } from "k6/metrics";

const phases = new Counter("phase_hits");

export const options = {
  scenarios: {
    smoke: { executor: "per-vu-iterations", vus: 1, iterations: 1, maxDuration: "1s" },
    load: { executor: "constant-vus", vus: 2, duration: "1s", startTime: "1s", exec: "load" },
    tail: { executor: "shared-iterations", vus: 1, iterations: 2, startTime: "2500ms", exec: "tail" },
  },
  thresholds: {
    "phase_hits{scenario:smoke}": ["count==1"],
    "phase_hits{scenario:tail}": ["count==2"],
    "phase_hits{scenario:load}": ["count>=2"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get?phase=smoke");
  phases.add(1);
}

export function load() {
  http.get("http://127.0.0.1:18481/get?phase=load");
  phases.add(1, { scenario: exec.scenario.name });
  sleep(0.1);
}

export function tail() {
  http.get("http://127.0.0.1:18482/get?phase=tail");
  phases.add(1);
}
