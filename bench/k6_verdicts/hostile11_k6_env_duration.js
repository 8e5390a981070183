// args:
// env: K6_VUS=2 K6_DURATION=1500ms
// counts: by duration
// K6_VUS and K6_DURATION from the CI's environment over the script's own vus and iterations.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  vus: 1,
  iterations: 1,
  thresholds: { vus_max: ["value==2"], iterations: ["count>2"] },
};

export default function () {
  check(http.get("http://127.0.0.1:18481/get"), { ok: (r) => r.status === 200 });
  sleep(0.2);
}
