// args: -u 1 -i 2
// setInterval polling a status until it answers, cleared from its own callback, awaited as a promise.
import http from "k6/http";
import { check } from "k6";
import { clearInterval, setInterval, setTimeout } from "k6/timers";

export const options = { thresholds: { checks: ["rate==1"], http_reqs: ["count==6"] } };

function poll(times) {
  return new Promise((resolve) => {
    let n = 0;
    const id = setInterval(() => {
      http.get(`http://127.0.0.1:18481/get?poll=${n}`);
      n++;
      if (n === times) {
        clearInterval(id);
        resolve(n);
      }
    }, 50);
  });
}

export default async function () {
  const n = await poll(3);
  check(n, { "three polls": (v) => v === 3 });
  const late = await new Promise((resolve) => setTimeout(() => resolve("done"), 20));
  check(late, { "timeout resolves": (v) => v === "done" });
}
