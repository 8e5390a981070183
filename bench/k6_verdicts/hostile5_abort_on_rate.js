// abortOnFail on a Rate of the script's own with `delayAbortEval`, failing from the first iteration: k6
// stops the 20 s test after the delay and exits 99; the other rule is judged on what ran.
import http from "k6/http";
import { sleep } from "k6";
import { Rate } from "k6/metrics";

const bad = new Rate("bad_answers");

export const options = {
  vus: 2,
  duration: "20s",
  thresholds: {
    bad_answers: [{ threshold: "rate<0.1", abortOnFail: true, delayAbortEval: "2s" }],
    http_reqs: ["count>0"],
  },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/status/500");
  bad.add(res.status >= 500);
  sleep(0.2);
}
