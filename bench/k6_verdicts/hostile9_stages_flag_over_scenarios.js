// args: --stage 1s:2 --stage 1s:0
// --stage on the command line replaces options.scenarios: a ramping-vus default scenario, tagged so.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  scenarios: {
    soak: { executor: "constant-vus", vus: 5, duration: "30s", tags: { from: "script" } },
  },
  thresholds: {
    vus_max: ["value==2"],
    "http_reqs{scenario:default}": ["count>0"],
    "http_reqs{from:script}": ["count==0"],
  },
};

export default function () {
  http.get("http://127.0.0.1:18481/get");
  sleep(0.2);
}
