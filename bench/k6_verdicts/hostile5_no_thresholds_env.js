// env: K6_NO_THRESHOLDS=true K6_ITERATIONS=3
// K6_NO_THRESHOLDS=true with a threshold that would fail and abort: k6 judges none and exits 0.
import http from "k6/http";

export const options = {
  iterations: 1,
  thresholds: {
    http_req_failed: [{ threshold: "rate==0", abortOnFail: true }],
    http_reqs: ["count==1"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/status/503");
}
