// args: -i 2
// abortOnFail failed by setup()'s request, setup short of k6's first tick: the load runs, 99 at the end.
import http from "k6/http";

export const options = {
  thresholds: { http_req_failed: [{ threshold: "rate==0", abortOnFail: true }] },
};

export function setup() {
  http.get("http://127.0.0.1:18481/status/503");
}

export default function () {
  http.get("http://127.0.0.1:18482/json");
}

export function teardown() {
  http.get("http://127.0.0.1:18482/json");
}
