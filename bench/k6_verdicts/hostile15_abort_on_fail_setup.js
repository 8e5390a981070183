// args: -i 2
// abortOnFail on failures setup() makes, setup then sleeping 3 s: whether thresholds abort during setup.
import http from "k6/http";
import { sleep } from "k6";

export const options = {
  thresholds: { http_req_failed: [{ threshold: "rate==0", abortOnFail: true }] },
};

export function setup() {
  http.get("http://127.0.0.1:18481/status/503");
  sleep(3);
}

export default function () {
  http.get("http://127.0.0.1:18482/get");
}
