// args:
// counts: by duration
// A constant arrival rate per 30 s with a scenario env and tags, the dropped gate at zero.
import http from "k6/http";

export const options = {
  scenarios: {
    trickle: {
      executor: "constant-arrival-rate",
      rate: 30,
      timeUnit: "30s",
      duration: "4s",
      preAllocatedVUs: 1,
      env: { PATH_PART: "trickle" },
      tags: { load: "low" },
    },
  },
  thresholds: { "http_reqs{load:low}": ["count>=3", "count<=6"], dropped_iterations: ["count==0"] },
};

export default function () {
  http.get(`http://127.0.0.1:18481/anything/${__ENV.PATH_PART}`);
}
