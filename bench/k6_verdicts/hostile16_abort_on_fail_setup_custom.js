// args: -i 2
// A custom Rate with abortOnFail, failed in a setup() that runs past k6's first tick: k6 stops there.
import http from "k6/http";
import { sleep } from "k6";
import { Rate } from "k6/metrics";

const good = new Rate("good");

export const options = { thresholds: { good: [{ threshold: "rate==1", abortOnFail: true }] } };

export function setup() {
  good.add(false);
  sleep(2.5);
}

export default function () {
  good.add(true);
  http.get("http://127.0.0.1:18482/json");
}
