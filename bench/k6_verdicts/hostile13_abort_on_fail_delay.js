// args:
// counts: by duration
// abortOnFail with delayAbortEval longer than the test: the threshold fails at the end, the run is not aborted.
import http from "k6/http";

export const options = {
  vus: 1,
  duration: "2s",
  thresholds: {
    http_reqs: [{ threshold: "count<2", abortOnFail: true, delayAbortEval: "30s" }],
    iterations: ["count>=1"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
}
