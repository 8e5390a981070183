// args: -u 1 -d 20s
// counts: by duration
// A checks rate with abortOnFail: every iteration fails one check of two, so the run aborts early (99).
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  thresholds: { checks: [{ threshold: "rate>0.9", abortOnFail: true }] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18481/status/500");
  check(res, { "answered": (r) => r.status > 0, "is 200": (r) => r.status === 200 });
  sleep(0.2);
}
