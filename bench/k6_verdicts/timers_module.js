// args: -i 3
// k6/timers inside an iteration: a timeout and an interval awaited before the iteration ends.
import http from "k6/http";
import { clearInterval, setInterval, setTimeout } from "k6/timers";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==9"] } };

export default async function () {
  let ticks = 0;
  await new Promise((resolve) => {
    const id = setInterval(() => {
      ticks++;
      http.get(`${BASE}/get?tick=${ticks}`);
      if (ticks === 2) {
        clearInterval(id);
        resolve();
      }
    }, 50);
  });
  const late = await new Promise((resolve) => setTimeout(() => resolve("done"), 30));
  const res = http.get(`${BASE}/get?late=${late}`);
  check(res, { "timer result sent": (r) => r.json("args.late") === "done", "two ticks": () => ticks === 2 });
}
