// args: -i 4
// A custom Rate under 1% and a Counter's rate; one threshold aborts on fail after a delay.
import http from "k6/http";
import { Counter, Rate } from "k6/metrics";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
const errors = new Rate("errors");
const done = new Counter("done");

export const options = {
  thresholds: {
    errors: [{ threshold: "rate<0.01", abortOnFail: true, delayAbortEval: "10s" }],
    done: ["count==4", "rate>0"],
  },
};

export default function () {
  const res = http.get(`${BASE}/status/200`);
  errors.add(res.status !== 200);
  done.add(1);
}
