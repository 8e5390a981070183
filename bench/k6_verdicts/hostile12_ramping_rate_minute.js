// args:
// counts: by duration
// ramping-arrival-rate in iterations per minute, up then down, with its own tags and a by-scenario gate.
import http from "k6/http";

export const options = {
  scenarios: {
    ramp: {
      executor: "ramping-arrival-rate",
      startRate: 60,
      timeUnit: "1m",
      preAllocatedVUs: 2,
      stages: [{ target: 300, duration: "2s" }, { target: 60, duration: "1s" }],
      tags: { phase: "ramp" },
    },
  },
  thresholds: {
    "http_reqs{phase:ramp}": ["count>=4", "count<=16"],
    "iterations{scenario:ramp}": ["count>=4"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
