// args: -e THINK=0.2 -e VUS=2 -e ITERS=4
// Values taken from -e straight into options and sleep() without parsing: k6 reads the strings.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  vus: __ENV.VUS,
  iterations: __ENV.ITERS,
  thresholds: { iterations: ["count==4"], iteration_duration: ["min>=150"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
  sleep(__ENV.THINK);
}
