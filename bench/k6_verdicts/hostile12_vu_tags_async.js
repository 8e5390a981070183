// args: -u 2 -i 4
// exec.vu.tags set in an async default after an await: later requests and custom metrics carry them.
import http from "k6/http";
import exec from "k6/execution";
import { Trend } from "k6/metrics";

const stepTime = new Trend("step_time", true);

export const options = {
  thresholds: {
    "http_reqs{step:two}": ["count==4"],
    "step_time{step:two}": ["max<5000"],
    "http_reqs{step:one}": ["count==4"],
  },
};

export default async function () {
  exec.vu.tags.step = "one";
  await http.asyncRequest("GET", "http://127.0.0.1:18481/get?s=1");
  exec.vu.tags.step = "two";
  const res = await http.asyncRequest("GET", "http://127.0.0.1:18481/get?s=2");
  stepTime.add(res.timings.duration);
}
