// args: -u 1 -i 2 -w
// `-w` (throw): a timeout and a refused port throw; the script keys its retry on the caught message.
import http from "k6/http";
import { check } from "k6";
import { Counter } from "k6/metrics";

const retried = new Counter("retried");

export const options = { thresholds: { retried: ["count==4"], checks: ["rate==1"] } };

function withRetry(url, params) {
  try {
    return http.get(url, params);
  } catch (e) {
    if (/request timeout$|connect: connection refused$/.test(e.message) && e.message.startsWith('Get "')) {
      retried.add(1);
      return http.get("http://127.0.0.1:18481/get?retry=1");
    }
    throw e;
  }
}

export default function () {
  check(withRetry("http://127.0.0.1:18481/delay/2", { timeout: "200ms" }), {
    "retried once": (r) => r.status === 200,
  });
  check(withRetry("http://127.0.0.1:1/"), { "refused retried": (r) => r.json("args.retry") === "1" });
}
