// args: -i 2
// A 2.5 s setup() with a failed request, abortOnFail on a rule it does not cross: the load runs, 0.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: {
    http_reqs: [{ threshold: "count<100", abortOnFail: true }],
    http_req_failed: ["rate<0.5"],
  },
};

export function setup() {
  http.get("http://127.0.0.1:18481/status/500");
  sleep(2.5);
}

export default function () {
  http.get("http://127.0.0.1:18482/json");
}
