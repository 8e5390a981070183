// counts: by duration
// per-vu-iterations with a maxDuration that ends the scenario before its iterations are done, with a
// short gracefulStop; the team's threshold asks that not every iteration ran.
import http from "k6/http";
import { check, sleep } from "k6";

export const options = {
  scenarios: {
    each: { executor: "per-vu-iterations", vus: 2, iterations: 20, maxDuration: "1s", gracefulStop: "0s" },
  },
  thresholds: { iterations: ["count<40"], "checks{scenario:each}": ["rate==1"] },
};

export default function () {
  const res = http.get("http://127.0.0.1:18482/get");
  check(res, { "ok": (r) => r.status === 200 });
  sleep(0.3);
}
