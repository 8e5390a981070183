// args: -u 1 -d 10s
// counts: by duration
// A threshold on a nested group's checks, abortOnFail after delayAbortEval: the test stops early, 99.
import http from "k6/http";
import { check, group, sleep } from "k6";

export const options = {
  thresholds: {
    "checks{group:::shop::cart}": [{ threshold: "rate>0.9", abortOnFail: true, delayAbortEval: "2s" }],
    "checks{group:::shop}": ["rate==1"],
  },
};

export default function () {
  group("shop", () => {
    check(http.get("http://127.0.0.1:18481/get"), { "listed": (r) => r.status === 200 });
    group("cart", () => {
      check(http.get("http://127.0.0.1:18481/status/409"), { "added": (r) => r.status === 200 });
    });
  });
  sleep(0.3);
}
