// args: --summary-trend-stats avg,min,max,p(90)
// minIterationDuration written per scenario, as a team guesses it goes: k6 knows no such scenario field.
import http from "k6/http";

export const options = {
  scenarios: {
    paced: { executor: "per-vu-iterations", vus: 1, iterations: 3, minIterationDuration: "400ms" },
    free: { executor: "per-vu-iterations", vus: 1, iterations: 3 },
  },
  thresholds: {
    "iteration_duration{scenario:paced}": ["min>=390"],
    "iteration_duration{scenario:free}": ["max<390"],
    "iterations{scenario:paced}": ["count==3"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
