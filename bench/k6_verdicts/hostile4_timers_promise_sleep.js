// args: -u 1 -i 3
// A promise-wrapped setTimeout from k6/timers as a team's `wait(ms)` helper, awaited between requests,
// and a setInterval polling until a condition then cleared.
import http from "k6/http";
import { check } from "k6";
import { clearInterval, setInterval, setTimeout } from "k6/timers";

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const options = { thresholds: { http_reqs: ["count==12"], checks: ["rate==1"] } };

export default async function () {
  http.get("http://127.0.0.1:18481/get?step=1");
  await wait(100);
  let polls = 0;
  await new Promise((done) => {
    const id = setInterval(() => {
      polls++;
      const res = http.get(`http://127.0.0.1:18481/get?poll=${polls}`);
      if (res.status === 200 && polls >= 3) {
        clearInterval(id);
        done();
      }
    }, 50);
  });
  check(polls, { "polled three times": (n) => n === 3 });
}
