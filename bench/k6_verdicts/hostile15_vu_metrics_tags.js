// args: -u 2 -i 6
// exec.vu.metrics.tags set and deleted per iteration, a number tag, metadata: thresholds read the tags.
import http from "k6/http";
import exec from "k6/execution";

export const options = {
  thresholds: {
    "http_reqs{phase:warm}": ["count==2"],
    "http_reqs{phase:hot}": ["count==4"],
    "http_reqs{step:3}": ["count==2"],
    "iterations{phase:hot}": ["count>=1"],
    http_reqs: ["count==8"],
  },
};

export default function () {
  exec.vu.metrics.tags.phase = exec.scenario.iterationInTest < 2 ? "warm" : "hot";
  exec.vu.metrics.metadata.trace = `t${__ITER}`;
  http.get("http://127.0.0.1:18481/get");
  if (exec.scenario.iterationInTest >= 4) {
    exec.vu.metrics.tags.step = 3;
    http.get("http://127.0.0.1:18481/get?step");
    delete exec.vu.metrics.tags.step;
  }
}
