// args: -u 1 -i 3
// A setTimeout callback that throws while the iteration still waits on it: the iteration ends in an error.
import http from "k6/http";
import { Counter } from "k6/metrics";

const done = new Counter("reached_end");

export const options = { thresholds: { reached_end: ["count==0"], iterations: ["count==3"] } };

export default async function () {
  http.get("http://127.0.0.1:18481/get");
  await new Promise((resolve) => {
    setTimeout(() => {
      throw new Error("late failure");
    }, 20);
    setTimeout(resolve, 200);
  });
  done.add(1);
}
