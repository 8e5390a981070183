// args:
// Think time drawn at random per iteration, as teams pace users: sleep(0.1 + Math.random() * 0.2).
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
export const options = {
  vus: 2,
  duration: "3s",
  thresholds: { iterations: ["count>=14", "count<=62"], iteration_duration: ["avg>=100", "max<2000"] },
};

const between = (min, max) => min + Math.random() * (max - min);

export default function () {
  check(http.get(`${BASE}/get`), { ok: (r) => r.status === 200 });
  sleep(between(0.1, 0.3));
}
