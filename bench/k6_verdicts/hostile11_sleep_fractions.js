// args: -u 2 -i 8
// Think time as teams copy it: fractions of a second and randomIntBetween pasted from k6-utils.
import http from "k6/http";
import { check, sleep } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

function randomIntBetween(min, max) {
  return Math.floor(Math.random() * (max - min + 1) + min);
}

export const options = {
  thresholds: { iterations: ["count==8"], iteration_duration: ["min>=100"], checks: ["rate==1"] },
};

export default function () {
  const res = http.get(`${BASE}/get?page=${randomIntBetween(1, 5)}`);
  check(res, { "page in range": (r) => [1, 2, 3, 4, 5].includes(Number(r.json("args.page"))) });
  sleep(0.05);
  sleep(randomIntBetween(1, 3) / 20);
  sleep(0.025 + Math.random() / 100);
}
