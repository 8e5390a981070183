// args: -u 2 -i 6
// Thresholds written with time units, as a team reads them from a latency budget: avg<200ms, p(99.9)<1s.
import http from "k6/http";
import { check } from "k6";

export const options = {
  thresholds: {
    http_req_duration: ["avg<200ms", "p(99.9)<1s"],
    iteration_duration: ["max<2s"],
  },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
}
