// args: -i 2
// k6/timers: setInterval ticks three times, then clears itself and resolves the awaited promise.
import { clearInterval, setInterval, setTimeout } from "k6/timers";
import http from "k6/http";
import { Counter } from "k6/metrics";

const ticks = new Counter("ticks");

export const options = { thresholds: { ticks: ["count==6"], "http_reqs{name:done}": ["count==2"] } };

export default async function () {
  await new Promise((resolve) => {
    let n = 0;
    const id = setInterval(() => {
      ticks.add(1);
      if (++n === 3) {
        clearInterval(id);
        setTimeout(resolve, 10);
      }
    }, 30);
  });
  http.get("http://127.0.0.1:18482/json", { tags: { name: "done" } });
}
