// args: -u 2 -i 6
// exec.vu.metrics.tags written during an iteration: later requests carry the tag, thresholds count them.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

export const options = {
  thresholds: {
    "http_reqs{step:login}": ["count==6"],
    "http_reqs{step:browse}": ["count==6"],
    "http_reqs{team:blue}": ["count==12"],
    checks: ["rate==1"],
  },
};

export default function () {
  exec.vu.metrics.tags.team = "blue";
  exec.vu.metrics.tags.step = "login";
  http.post("http://127.0.0.1:18481/post", "u=1");
  exec.vu.metrics.tags.step = "browse";
  const res = http.get("http://127.0.0.1:18481/get");
  check(res, { "tag readable": () => exec.vu.metrics.tags.step === "browse" });
  delete exec.vu.metrics.tags.step;
}
