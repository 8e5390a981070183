// args: -u 2 -d 2s
// exec.instance.iterationsInterrupted and iterationsCompleted read in VU code and teardown().
import http from "k6/http";
import exec from "k6/execution";
import { check, sleep } from "k6";
import { Counter } from "k6/metrics";

const seen = new Counter("h8_seen");

export const options = { thresholds: { checks: ["rate==1"], h8_seen: ["count>0"] } };

export default function () {
  http.get("http://127.0.0.1:18481/get");
  check(exec.instance, {
    "counts are numbers": (i) => typeof i.iterationsInterrupted === "number" && i.iterationsCompleted >= 0,
    "none interrupted yet": (i) => i.iterationsInterrupted === 0,
  });
  seen.add(1);
  sleep(0.3);
}
