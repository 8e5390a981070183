// args: -u 1 -i 2
// A k6/timers heartbeat while the iteration's own requests run, stopped when they are done.
import http from "k6/http";
import { check, sleep } from "k6";
import { clearInterval, setInterval } from "k6/timers";
import { Counter } from "k6/metrics";

const beats = new Counter("heartbeats");

export const options = { thresholds: { heartbeats: ["count>=2"], "http_reqs{kind:beat}": ["count>=2"] } };

export default async function () {
  const id = setInterval(() => {
    beats.add(1);
    http.get("http://127.0.0.1:18482/get?beat=1", { tags: { kind: "beat" } });
  }, 100);
  await new Promise((resolve) => setTimeout(resolve, 350));
  clearInterval(id);
  check(http.get("http://127.0.0.1:18481/get"), { "work done": (r) => r.status === 200 });
  sleep(0.05);
}
